package dev.sluice.replay;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.sluice.rules.Entry;
import dev.sluice.service.RequestMapping;
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

  /** 9999-12-31T23:59:59.999Z: far from where epoch microseconds overflow a {@code long}. */
  public static final long MAX_TIMESTAMP_MILLIS = 253_402_300_799_999L;

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
   * Parses one line as strictly as the RLS port reads a request: {@code ts} an integer of epoch
   * milliseconds in [0, {@value #MAX_TIMESTAMP_MILLIS}] (up to the year 9999), {@code domain} a
   * non-empty string, {@code descriptors} a non-empty array of objects each with an {@code entries}
   * array of {@code key}/{@code value} strings, and {@code hits} (optional, 0 when absent) an
   * integer checked by {@link RequestMapping#boundedHits}, as the port checks a hits_addend.
   *
   * @throws IllegalArgumentException naming the field and what is wrong with it
   */
  public static CapturedRequest parse(String line) {
    JsonObject json = CaptureJson.parseObject(line);
    long ts = CaptureJson.integer(CaptureJson.required(json, "ts", "ts"), "ts");
    if (ts < 0 || ts > MAX_TIMESTAMP_MILLIS) {
      throw new IllegalArgumentException(
          "'ts' must be epoch milliseconds in [0, " + MAX_TIMESTAMP_MILLIS + "]: " + ts);
    }
    String domain = CaptureJson.string(json, "domain", "domain");
    if (domain.isEmpty()) {
      throw new IllegalArgumentException("'domain' must not be empty");
    }
    JsonArray list = CaptureJson.array(json, "descriptors", "descriptors");
    if (list.isEmpty()) {
      throw new IllegalArgumentException("'descriptors' must not be empty");
    }
    List<List<Entry>> descriptors = new ArrayList<>(list.size());
    for (int d = 0; d < list.size(); d++) {
      descriptors.add(entries(list.get(d), "descriptors[" + d + "]"));
    }
    return new CapturedRequest(ts, domain, descriptors, hits(json));
  }

  private static List<Entry> entries(JsonElement descriptor, String where) {
    JsonArray list =
        CaptureJson.array(CaptureJson.object(descriptor, where), "entries", where + ".entries");
    List<Entry> entries = new ArrayList<>(list.size());
    for (int e = 0; e < list.size(); e++) {
      String at = where + ".entries[" + e + "]";
      JsonObject entry = CaptureJson.object(list.get(e), at);
      entries.add(
          new Entry(
              CaptureJson.string(entry, "key", at + ".key"),
              CaptureJson.string(entry, "value", at + ".value")));
    }
    return entries;
  }

  private static long hits(JsonObject json) {
    if (!json.has("hits")) {
      return 0;
    }
    long hits = CaptureJson.integer(json.get("hits"), "hits");
    if (hits < 0) {
      throw new IllegalArgumentException("'hits' must be >= 0: " + hits);
    }
    try {
      return RequestMapping.boundedHits(hits);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'hits': " + e.getMessage(), e);
    }
  }
}
