package dev.sluice.cli;

import dev.sluice.config.HeaderConfig;
import dev.sluice.config.ResponseSettings;
import dev.sluice.config.SettingValues;

/** What the answer carries besides the code: RateLimit-* headers and dynamic metadata. */
final class ResponseOptions {
  private final SettingValues values;

  ResponseOptions(SettingValues values) {
    this.values = values;
  }

  HeaderConfig toConfig() {
    return new HeaderConfig(
        values.get(ResponseSettings.RESPONSE_HEADERS),
        values.get(ResponseSettings.LIMIT_HEADER),
        values.get(ResponseSettings.REMAINING_HEADER),
        values.get(ResponseSettings.RESET_HEADER),
        values.get(ResponseSettings.RESPONSE_DYNAMIC_METADATA));
  }
}
