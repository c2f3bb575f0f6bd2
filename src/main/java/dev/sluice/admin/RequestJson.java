package dev.sluice.admin;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.sluice.limiter.InvalidRequestException;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;

/**
 * The {@code RateLimitRequest} in proto3 JSON that {@code /json} and {@code /explain} take. A
 * number longer than {@link #MAX_NUMBER_CHARS} (as a JSON number anywhere, or as a string in a
 * numeric field) is refused before protobuf's parser sees it: that parser turns it into a {@code
 * BigDecimal}, which costs time quadratic in its digits (a 500,000-digit {@code hitsAddend} took 15
 * s of CPU), and every field of the request fits in 20 digits.
 */
final class RequestJson {
  static final int MAX_NUMBER_CHARS = 32;

  // The request's integer fields, in both JSON spellings, which proto3 JSON also takes as strings.
  private static final Set<String> NUMERIC_FIELDS =
      Set.of("hitsAddend", "hits_addend", "requestsPerUnit", "requests_per_unit");

  private RequestJson() {}

  /**
   * @throws InvalidRequestException naming the problem, never quoting more than a short prefix
   */
  static RateLimitRequest parse(byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    try {
      refuseLongNumbers(JsonParser.parseString(text));
    } catch (JsonParseException e) {
      // Gson's tree reader is more lenient than protobuf's: protobuf refuses it too, and says why.
    }
    RateLimitRequest.Builder request = RateLimitRequest.newBuilder();
    try {
      JsonFormat.parser().merge(text, request);
    } catch (InvalidProtocolBufferException e) {
      throw new InvalidRequestException("invalid RateLimitRequest JSON: " + e.getMessage());
    }
    return request.build();
  }

  /** Walks the tree without recursion, whatever its depth. */
  private static void refuseLongNumbers(JsonElement tree) {
    Deque<Map.Entry<String, JsonElement>> left = new ArrayDeque<>();
    left.push(Map.entry("", tree));
    while (!left.isEmpty()) {
      Map.Entry<String, JsonElement> next = left.pop();
      JsonElement element = next.getValue();
      if (element.isJsonObject()) {
        element.getAsJsonObject().entrySet().forEach(left::push);
      } else if (element.isJsonArray()) {
        element.getAsJsonArray().forEach(each -> left.push(Map.entry(next.getKey(), each)));
      } else if (element.isJsonPrimitive()) {
        check(next.getKey(), element.getAsJsonPrimitive());
      }
    }
  }

  private static void check(String field, JsonPrimitive value) {
    boolean numeric = value.isNumber() || (value.isString() && NUMERIC_FIELDS.contains(field));
    if (numeric && value.getAsString().length() > MAX_NUMBER_CHARS) {
      throw new InvalidRequestException(
          "invalid RateLimitRequest JSON: "
              + (field.isEmpty() ? "a number" : field)
              + " has "
              + value.getAsString().length()
              + " characters, more than any number it may hold ("
              + MAX_NUMBER_CHARS
              + ")");
    }
  }
}
