package dev.sluice.cli;

import dev.sluice.config.CaptureConfig;
import dev.sluice.config.CaptureSettings;
import dev.sluice.config.SettingValues;
import java.util.Optional;

/** Request capture flags ({@code --capture-*}), for {@code sluice replay --input}. */
final class CaptureOptions {
  private final SettingValues values;

  CaptureOptions(SettingValues values) {
    this.values = values;
  }

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  CaptureConfig toConfig() {
    return new CaptureConfig(
        Optional.ofNullable(values.get(CaptureSettings.CAPTURE_FILE))
            .filter(f -> !f.toString().isBlank()),
        values.get(CaptureSettings.CAPTURE_SAMPLE),
        values.get(CaptureSettings.CAPTURE_HASH_VALUES),
        values.get(CaptureSettings.CAPTURE_MAX_BYTES),
        values.get(CaptureSettings.CAPTURE_MAX_FILES));
  }
}
