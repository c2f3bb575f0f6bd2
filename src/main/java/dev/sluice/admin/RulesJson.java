package dev.sluice.admin;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.load.RuleProblem;
import dev.sluice.rules.load.RuleReloader;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** The loaded rules, their source and the last reload error, as JSON for operators. */
public final class RulesJson {
  private RulesJson() {}

  public static JsonObject of(
      RuleReloader.Snapshot snapshot, Optional<RuleReloader.ReloadError> error) {
    JsonObject root = new JsonObject();
    root.addProperty("version", snapshot.version());
    root.addProperty("loaded_at", snapshot.loadedAt().toString());
    JsonArray files = new JsonArray();
    for (Path file : snapshot.files()) {
      files.add(file.toString());
    }
    root.add("files", files);
    JsonObject domains = new JsonObject();
    for (String domain : snapshot.rules().domains()) {
      domains.add(domain, new JsonArray());
    }
    for (Rule rule : snapshot.rules().rules()) {
      domains.getAsJsonArray(rule.domain()).add(ruleJson(rule));
    }
    root.add("domains", domains);
    root.add("last_reload_error", error.map(RulesJson::errorJson).orElse(null));
    return root;
  }

  /** One rule: its path, limit, algorithm and flags. */
  public static JsonObject ruleJson(Rule rule) {
    JsonObject json = new JsonObject();
    json.addProperty("path", rule.path());
    if (!rule.name().isEmpty()) {
      json.addProperty("name", rule.name());
    }
    if (rule.unlimited()) {
      json.addProperty("unlimited", true);
    }
    rule.limit().ifPresent(limit -> addLimit(json, limit));
    json.addProperty("shadow_mode", rule.shadowMode());
    json.addProperty("quota_mode", rule.flags().quotaMode());
    json.addProperty("detailed_metric", rule.flags().detailedMetric());
    if (!rule.replaces().isEmpty()) {
      JsonArray replaces = new JsonArray();
      rule.replaces().stream().sorted().forEach(replaces::add);
      json.add("replaces", replaces);
    }
    json.addProperty("origin", rule.origin());
    return json;
  }

  private static void addLimit(JsonObject json, Limit limit) {
    json.addProperty("requests_per_unit", limit.requestsPerUnit());
    json.addProperty("unit", limit.unit().name().toLowerCase(Locale.ROOT));
    json.addProperty("algorithm", limit.algorithm().configName());
    if (limit.algorithm() == dev.sluice.rules.Algorithm.TOKEN_BUCKET) {
      json.addProperty("burst", limit.burst());
    }
  }

  private static JsonObject errorJson(RuleReloader.ReloadError error) {
    JsonObject json = new JsonObject();
    json.addProperty("at", error.at().toString());
    JsonArray problems = new JsonArray();
    for (RuleProblem problem : error.problems()) {
      problems.add(problem.toString());
    }
    json.add("problems", problems);
    return json;
  }
}
