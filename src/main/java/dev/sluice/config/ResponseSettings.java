package dev.sluice.config;

import java.util.List;

/** What the answer carries besides the code: RateLimit-* headers and dynamic metadata. */
public final class ResponseSettings {
  public static final Setting<Boolean> RESPONSE_HEADERS =
      Setting.bool(
          "--response-headers",
          "SLUICE_RESPONSE_HEADERS",
          false,
          "Ask Envoy to add RateLimit-Limit/Remaining/Reset headers");

  public static final Setting<Boolean> RESPONSE_DYNAMIC_METADATA =
      Setting.bool(
          "--response-dynamic-metadata",
          "SLUICE_RESPONSE_DYNAMIC_METADATA",
          false,
          "Set the response's dynamic_metadata as the reference does: domain, descriptors, hits addend and the metadata of the rules not over their limit");

  public static final Setting<String> LIMIT_HEADER =
      Setting.text(
          "--limit-header", "SLUICE_LIMIT_HEADER", "RateLimit-Limit", "Name of the limit header");

  public static final Setting<String> REMAINING_HEADER =
      Setting.text(
          "--remaining-header",
          "SLUICE_REMAINING_HEADER",
          "RateLimit-Remaining",
          "Name of the remaining header");

  public static final Setting<String> RESET_HEADER =
      Setting.text(
          "--reset-header", "SLUICE_RESET_HEADER", "RateLimit-Reset", "Name of the reset header");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          RESPONSE_HEADERS,
          RESPONSE_DYNAMIC_METADATA,
          LIMIT_HEADER,
          REMAINING_HEADER,
          RESET_HEADER);

  private ResponseSettings() {}
}
