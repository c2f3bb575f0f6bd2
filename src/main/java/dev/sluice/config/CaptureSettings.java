package dev.sluice.config;

import java.nio.file.Path;
import java.util.List;

/** Request capture, for sluice replay --input. */
public final class CaptureSettings {
  public static final Setting<Path> CAPTURE_FILE =
      Setting.path(
          "--capture-file",
          "SLUICE_CAPTURE_FILE",
          "Append sampled requests as JSON lines (sluice replay --input format) to this file; off when unset");

  public static final Setting<Double> CAPTURE_SAMPLE =
      Setting.of(
          "--capture-sample",
          "SLUICE_CAPTURE_SAMPLE",
          "0.01",
          SettingText::doubleValue,
          "Share of requests captured, in (0, 1]");

  public static final Setting<Boolean> CAPTURE_HASH_VALUES =
      Setting.bool(
          "--capture-hash-values",
          "SLUICE_CAPTURE_HASH_VALUES",
          false,
          "Write descriptor values as HMAC-SHA256 hashes under a per-process random key");

  public static final Setting<Long> CAPTURE_MAX_BYTES =
      Setting.longValue(
          "--capture-max-bytes",
          "SLUICE_CAPTURE_MAX_BYTES",
          "104857600",
          "Rotate the capture file at this size, bytes");

  public static final Setting<Integer> CAPTURE_MAX_FILES =
      Setting.integer(
          "--capture-max-files",
          "SLUICE_CAPTURE_MAX_FILES",
          "5",
          "Capture files kept in all, FILE, FILE.1");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          CAPTURE_FILE, CAPTURE_SAMPLE, CAPTURE_HASH_VALUES, CAPTURE_MAX_BYTES, CAPTURE_MAX_FILES);

  private CaptureSettings() {}
}
