package dev.sluice.live;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import dev.sluice.rlqs.RlqsSnapshot;
import java.util.Optional;

/**
 * The body of {@code GET /ui/data}: the traffic snapshot, the status and the RLQS service's
 * snapshot (absent when it is off: null members are left out), as one JSON object.
 */
final class LiveJson {
  private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

  private LiveJson() {}

  static String of(LiveSnapshot snapshot, LiveStatus status, Optional<RlqsSnapshot> rlqs) {
    JsonObject root = new JsonObject();
    root.addProperty("now_epoch_second", snapshot.epochSecond());
    root.addProperty("window_seconds", LiveStats.WINDOW_SECONDS);
    root.add("store", store(status));
    root.add("rules_loaded", rulesLoaded(status));
    JsonArray rules = new JsonArray();
    snapshot.rules().forEach(rule -> rules.add(rule(rule)));
    root.add("rules", rules);
    JsonArray keys = new JsonArray();
    for (LiveSnapshot.KeyView key : snapshot.topRefused()) {
      JsonObject k = new JsonObject();
      k.addProperty("domain", key.domain());
      k.addProperty("rule", key.rule());
      k.addProperty("key", key.key());
      k.addProperty("refusals", key.count());
      k.addProperty("error", key.error());
      keys.add(k);
    }
    root.add("top_refused", keys);
    root.add("rlqs", rlqs.<JsonElement>map(LiveJson::rlqs).orElse(JsonNull.INSTANCE));
    return GSON.toJson(root);
  }

  private static JsonObject rlqs(RlqsSnapshot rlqs) {
    JsonObject out = new JsonObject();
    out.addProperty("streams", rlqs.streams());
    out.addProperty("buckets", rlqs.buckets());
    JsonArray rules = new JsonArray();
    for (RlqsSnapshot.RuleRow row : rlqs.rules()) {
      JsonObject r = new JsonObject();
      r.addProperty("domain", row.domain());
      r.addProperty("rule", row.rule());
      r.addProperty("buckets", row.buckets());
      r.addProperty("assigned_per_second", row.assignedPerSecond());
      r.addProperty("limit_per_second", row.limitPerSecond());
      r.addProperty("reported_allowed", row.allowed());
      r.addProperty("reported_denied", row.denied());
      rules.add(r);
    }
    out.add("rules", rules);
    return out;
  }

  private static JsonObject store(LiveStatus status) {
    JsonObject store = new JsonObject();
    store.addProperty("kind", status.storeKind());
    store.addProperty("up", status.storeUp());
    store.addProperty("breaker", status.breaker());
    store.addProperty("error", status.storeError());
    store.addProperty("failure_mode", status.failureMode());
    return store;
  }

  private static JsonObject rulesLoaded(LiveStatus status) {
    JsonObject rules = new JsonObject();
    rules.addProperty("version", status.rulesVersion());
    rules.addProperty("loaded_at", status.rulesLoadedAt().toString());
    if (status.reloadErrorAt().isEmpty()) {
      rules.add("last_reload_error", JsonNull.INSTANCE);
    } else {
      JsonObject error = new JsonObject();
      error.addProperty("at", status.reloadErrorAt().get().toString());
      JsonArray problems = new JsonArray();
      status.reloadProblems().forEach(problems::add);
      error.add("problems", problems);
      rules.add("last_reload_error", error);
    }
    return rules;
  }

  private static JsonObject rule(LiveSnapshot.RuleView rule) {
    JsonObject r = new JsonObject();
    r.addProperty("domain", rule.domain());
    r.addProperty("rule", rule.rule());
    r.addProperty("limit", rule.limit());
    r.addProperty("decisions_total", rule.totals().decisions());
    r.addProperty("refusals_total", rule.totals().refusals());
    r.addProperty("hits_total", rule.totals().hits());
    r.addProperty("over_limit_hits_total", rule.totals().overLimitHits());
    r.add("decisions_per_second", array(rule.decisions()));
    r.add("refusals_per_second", array(rule.refusals()));
    return r;
  }

  private static JsonArray array(long[] values) {
    JsonArray array = new JsonArray(values.length);
    for (long value : values) {
      array.add(value);
    }
    return array;
  }
}
