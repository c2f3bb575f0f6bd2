package dev.sluice.config;

import java.util.Objects;

/**
 * What a response carries besides the statuses: the {@code RateLimit-*} headers Sluice may ask
 * Envoy to add, and the reference's dynamic metadata.
 *
 * @param enabled the headers; off by default, as in the reference service
 * @param dynamicMetadata set {@code dynamic_metadata} as the reference's RESPONSE_DYNAMIC_METADATA
 *     does; off by default
 */
public record HeaderConfig(
    boolean enabled,
    String limitHeader,
    String remainingHeader,
    String resetHeader,
    boolean dynamicMetadata) {
  public HeaderConfig {
    for (String name : new String[] {limitHeader, remainingHeader, resetHeader}) {
      Objects.requireNonNull(name, "header name");
      if (!name.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) {
        throw new IllegalArgumentException("invalid header name: '" + name + "'");
      }
    }
  }

  public static HeaderConfig off() {
    return from(SettingValues.defaults());
  }

  /** From the declared settings. */
  public static HeaderConfig from(SettingValues values) {
    return new HeaderConfig(
        values.get(ResponseSettings.RESPONSE_HEADERS),
        values.get(ResponseSettings.LIMIT_HEADER),
        values.get(ResponseSettings.REMAINING_HEADER),
        values.get(ResponseSettings.RESET_HEADER),
        values.get(ResponseSettings.RESPONSE_DYNAMIC_METADATA));
  }
}
