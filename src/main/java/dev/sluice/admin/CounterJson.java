package dev.sluice.admin;

import com.google.gson.JsonObject;
import dev.sluice.limiter.CounterAdmin;
import dev.sluice.store.Usage;
import java.util.Optional;

/** A counter as JSON for {@code /counters}. */
final class CounterJson {
  private CounterJson() {}

  static JsonObject of(Optional<CounterAdmin.Found> found, String existsField) {
    JsonObject json = new JsonObject();
    json.addProperty("matched", found.isPresent());
    if (found.isEmpty()) {
      return json;
    }
    json.add("rule", RulesJson.ruleJson(found.get().rule()));
    json.addProperty("key", found.get().counter().storeKey());
    json.addProperty(existsField, found.get().counter().exists());
    Usage usage = found.get().counter().usage();
    json.addProperty("count", usage.countAfter());
    json.addProperty("remaining", usage.remaining());
    json.addProperty("seconds_until_reset", usage.untilReset().toMillis() / 1000.0);
    return json;
  }
}
