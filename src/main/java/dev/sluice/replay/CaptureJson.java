package dev.sluice.replay;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;

/**
 * Reading one capture line's JSON strictly: RFC 8259 only (no comments, unquoted names or single
 * quotes, which Gson's default would accept), one object per line, and each field of the type it
 * must have, or an {@link IllegalArgumentException} that names the field by its path ({@code
 * descriptors[0].entries[1].value}) and what was found. Numbers must be integers that fit a {@code
 * long}: {@code 1e30} or {@code 1.5} is refused, never rounded. Stateless.
 */
final class CaptureJson {
  private static final int SHOWN_CHARS = 40;

  private CaptureJson() {}

  /**
   * @throws IllegalArgumentException when {@code line} is not exactly one JSON object
   */
  static JsonObject parseObject(String line) {
    JsonReader reader = new JsonReader(new StringReader(line));
    reader.setStrictness(Strictness.STRICT);
    JsonElement json;
    try {
      json = JsonParser.parseReader(reader);
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw new IllegalArgumentException("text after the JSON object");
      }
    } catch (JsonParseException | IOException e) {
      throw new IllegalArgumentException("not JSON: " + syntaxError(e.getMessage()));
    }
    if (!json.isJsonObject()) {
      throw new IllegalArgumentException("expected a JSON object, found " + kind(json));
    }
    return json.getAsJsonObject();
  }

  static JsonObject object(JsonElement json, String where) {
    if (!json.isJsonObject()) {
      throw wrongType(where, "an object", json);
    }
    return json.getAsJsonObject();
  }

  static JsonArray array(JsonObject json, String field, String where) {
    JsonElement value = required(json, field, where);
    if (!value.isJsonArray()) {
      throw wrongType(where, "an array", value);
    }
    return value.getAsJsonArray();
  }

  static String string(JsonObject json, String field, String where) {
    JsonElement value = required(json, field, where);
    if (!(value.isJsonPrimitive() && value.getAsJsonPrimitive().isString())) {
      throw wrongType(where, "a string", value);
    }
    return value.getAsString();
  }

  /** An integer that fits a {@code long}: {@code 5.0} is 5; {@code 5.5}, {@code "5"} are not. */
  static long integer(JsonElement value, String where) {
    if (!(value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber())) {
      throw wrongType(where, "an integer", value);
    }
    try {
      // longValueExact compares digits and scale before expanding, so 1e999999999 costs nothing.
      return value.getAsBigDecimal().longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "'" + where + "' must be an integer of at most 64 bits, found " + shown(value));
    }
  }

  static JsonElement required(JsonObject json, String field, String where) {
    JsonElement value = json.get(field);
    if (value == null) {
      throw new IllegalArgumentException("missing '" + where + "'");
    }
    return value;
  }

  private static IllegalArgumentException wrongType(String where, String wanted, JsonElement json) {
    return new IllegalArgumentException(
        "'" + where + "' must be " + wanted + ", found " + kind(json));
  }

  private static String kind(JsonElement json) {
    if (json.isJsonObject()) {
      return "an object";
    }
    if (json.isJsonArray()) {
      return "an array";
    }
    if (json.isJsonNull()) {
      return "null";
    }
    JsonPrimitive primitive = json.getAsJsonPrimitive();
    if (primitive.isBoolean()) {
      return "a boolean";
    }
    return (primitive.isNumber() ? "the number " : "the string ") + shown(primitive);
  }

  /** As JSON (so escaped), cut short: a bad value may be a megabyte long. */
  static String shown(JsonElement value) {
    String json = value.toString();
    return json.length() <= SHOWN_CHARS ? json : json.substring(0, SHOWN_CHARS) + "...";
  }

  /**
   * Gson's message without its class name, its advice to programmers ("Use
   * JsonReader.setStrictness...") or its troubleshooting link; the column kept.
   */
  private static String syntaxError(String message) {
    if (message == null) {
      return "malformed";
    }
    String text = message.lines().findFirst().orElse("");
    text = text.replaceFirst("^[\\w.]+Exception: ", "");
    text =
        text.replace(
            "Use JsonReader.setStrictness(Strictness.LENIENT) to accept malformed JSON",
            "unexpected text");
    return text.replaceFirst(" at line 1 column", " at column").replaceFirst(" path \\$.*$", "");
  }
}
