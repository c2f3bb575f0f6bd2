package dev.sluice.replay;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.sluice.rules.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One captured request, one JSON line: {@code
 * {"ts":1700000000123,"domain":"edge","descriptors":[{"entries":[{"key":"k","value":"v"}]}],
 * "hits":1}}. The descriptors have the shape of a RateLimitRequest's in proto3 JSON.
 *
 * @param timestampMillis when it was received, epoch milliseconds
 * @param hits the request's hits_addend (0 means 1)
 */
public record CapturedRequest(
    long timestampMillis, String domain, List<List<Entry>> descriptors, long hits) {
  private static final Gson GSON = new Gson();

  public CapturedRequest {
    Objects.requireNonNull(domain, "domain");
    descriptors = descriptors.stream().map(List::copyOf).toList();
    if (hits < 0) {
      throw new IllegalArgumentException("hits must be >= 0: " + hits);
    }
  }

  public String toJsonLine() {
    JsonObject line = new JsonObject();
    line.addProperty("ts", timestampMillis);
    line.addProperty("domain", domain);
    JsonArray list = new JsonArray();
    for (List<Entry> descriptor : descriptors) {
      JsonArray entries = new JsonArray();
      for (Entry entry : descriptor) {
        JsonObject e = new JsonObject();
        e.addProperty("key", entry.key());
        e.addProperty("value", entry.value());
        entries.add(e);
      }
      JsonObject d = new JsonObject();
      d.add("entries", entries);
      list.add(d);
    }
    line.add("descriptors", list);
    line.addProperty("hits", hits);
    return GSON.toJson(line);
  }

  /**
   * @throws IllegalArgumentException naming what is wrong with {@code line}
   */
  public static CapturedRequest parse(String line) {
    JsonObject json;
    try {
      json = JsonParser.parseString(line).getAsJsonObject();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a JSON object: " + e.getMessage());
    }
    List<List<Entry>> descriptors = new ArrayList<>();
    for (JsonElement d : array(json, "descriptors")) {
      List<Entry> entries = new ArrayList<>();
      for (JsonElement e : array(d.getAsJsonObject(), "entries")) {
        JsonObject entry = e.getAsJsonObject();
        entries.add(new Entry(string(entry, "key"), string(entry, "value")));
      }
      descriptors.add(entries);
    }
    return new CapturedRequest(
        number(json, "ts"),
        string(json, "domain"),
        descriptors,
        json.has("hits") ? json.get("hits").getAsLong() : 0);
  }

  private static JsonArray array(JsonObject json, String field) {
    if (!json.has(field) || !json.get(field).isJsonArray()) {
      throw new IllegalArgumentException("missing array '" + field + "'");
    }
    return json.getAsJsonArray(field);
  }

  private static String string(JsonObject json, String field) {
    if (!json.has(field) || !json.get(field).isJsonPrimitive()) {
      throw new IllegalArgumentException("missing string '" + field + "'");
    }
    return json.get(field).getAsString();
  }

  private static long number(JsonObject json, String field) {
    if (!json.has(field) || !json.get(field).isJsonPrimitive()) {
      throw new IllegalArgumentException("missing number '" + field + "'");
    }
    return json.get(field).getAsLong();
  }
}
