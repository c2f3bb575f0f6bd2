package dev.sluice.admin;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonParser;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;

/**
 * Proto messages as the admin HTTP port's JSON. {@link JsonFormat} HTML-escapes strings ({@code '}
 * becomes {@code \u0027}, {@code =} {@code \u003d}), which is valid JSON but unreadable for a
 * {@code curl} user; its output is re-printed without that escaping. The values are JsonFormat's:
 * nothing is built by hand.
 */
public final class ProtoJson {
  /** The admin API's own messages: proto field names, fields without presence always printed. */
  public static final JsonFormat.Printer ADMIN =
      JsonFormat.printer().preservingProtoFieldNames().alwaysPrintFieldsWithNoPresence();

  /** Envoy's messages as the reference's {@code /json} prints them (lowerCamel names). */
  public static final JsonFormat.Printer ENVOY = JsonFormat.printer();

  private ProtoJson() {}

  /** {@code message} printed by {@code printer}, pretty, not HTML-escaped, with a final newline. */
  public static String print(JsonFormat.Printer printer, MessageOrBuilder message) {
    String escaped;
    try {
      escaped = printer.print(message);
    } catch (InvalidProtocolBufferException e) {
      // Only an Any with an unknown type can fail; the admin messages hold none.
      throw new IllegalStateException("cannot print " + message.getClass().getSimpleName(), e);
    }
    return new GsonBuilder()
            .setPrettyPrinting()
            .disableHtmlEscaping()
            .create()
            .toJson(JsonParser.parseString(escaped))
        + "\n";
  }
}
