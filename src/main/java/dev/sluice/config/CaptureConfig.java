package dev.sluice.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Capture of sampled requests to JSON lines for {@code sluice replay --input}.
 *
 * @param file where to append; empty = capture off (the default)
 * @param sampleRate share of requests captured, in (0, 1]
 * @param hashValues write descriptor values as keyed hashes instead of in clear
 * @param maxBytes size at which the file is rotated, bytes
 * @param maxFiles files kept in all, the one being written included ({@code FILE}, {@code FILE.1},
 *     ...), so the capture never takes more than {@code maxBytes * maxFiles}
 */
public record CaptureConfig(
    Optional<Path> file, double sampleRate, boolean hashValues, long maxBytes, int maxFiles) {
  public static final double DEFAULT_SAMPLE_RATE = CaptureSettings.CAPTURE_SAMPLE.defaultValue();
  public static final long DEFAULT_MAX_BYTES = CaptureSettings.CAPTURE_MAX_BYTES.defaultValue();
  public static final int DEFAULT_MAX_FILES = CaptureSettings.CAPTURE_MAX_FILES.defaultValue();

  public static final CaptureConfig OFF =
      new CaptureConfig(
          Optional.empty(), DEFAULT_SAMPLE_RATE, false, DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES);

  public CaptureConfig {
    Objects.requireNonNull(file, "file");
    if (!(sampleRate > 0 && sampleRate <= 1)) {
      throw new IllegalArgumentException("--capture-sample must be in (0, 1]: " + sampleRate);
    }
    if (maxBytes < 1024) {
      throw new IllegalArgumentException("--capture-max-bytes must be >= 1024: " + maxBytes);
    }
    if (maxFiles < 1) {
      throw new IllegalArgumentException("--capture-max-files must be >= 1: " + maxFiles);
    }
  }

  public boolean enabled() {
    return file.isPresent();
  }

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  public static CaptureConfig from(SettingValues values) {
    return new CaptureConfig(
        Optional.ofNullable(values.get(CaptureSettings.CAPTURE_FILE))
            .filter(f -> !f.toString().isBlank()),
        values.get(CaptureSettings.CAPTURE_SAMPLE),
        values.get(CaptureSettings.CAPTURE_HASH_VALUES),
        values.get(CaptureSettings.CAPTURE_MAX_BYTES),
        values.get(CaptureSettings.CAPTURE_MAX_FILES));
  }
}
