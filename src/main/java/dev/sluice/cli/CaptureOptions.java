package dev.sluice.cli;

import dev.sluice.config.CaptureConfig;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Request capture flags ({@code --capture-*}), for {@code sluice replay --input}. */
final class CaptureOptions {
  @Option(
      names = "--capture-file",
      defaultValue = "${env:SLUICE_CAPTURE_FILE}",
      description =
          "Append sampled requests as JSON lines (sluice replay --input format) to this file; off"
              + " when unset (env SLUICE_CAPTURE_FILE).")
  Path file;

  @Option(
      names = "--capture-sample",
      defaultValue = "${env:SLUICE_CAPTURE_SAMPLE:-0.01}",
      description =
          "Share of requests captured, in (0, 1] (env SLUICE_CAPTURE_SAMPLE, default"
              + " ${DEFAULT-VALUE}).")
  double sampleRate;

  @Option(
      names = "--capture-hash-values",
      arity = "0..1",
      defaultValue = "${env:SLUICE_CAPTURE_HASH_VALUES:-false}",
      description =
          "Write descriptor values as HMAC-SHA256 hashes under a per-process random key (env"
              + " SLUICE_CAPTURE_HASH_VALUES, default ${DEFAULT-VALUE}).")
  boolean hashValues;

  @Option(
      names = "--capture-max-bytes",
      defaultValue = "${env:SLUICE_CAPTURE_MAX_BYTES:-104857600}",
      description =
          "Rotate the capture file at this size, bytes (env SLUICE_CAPTURE_MAX_BYTES, default"
              + " ${DEFAULT-VALUE}).")
  long maxBytes;

  @Option(
      names = "--capture-max-files",
      defaultValue = "${env:SLUICE_CAPTURE_MAX_FILES:-5}",
      description =
          "Capture files kept in all, FILE, FILE.1 ... (env SLUICE_CAPTURE_MAX_FILES, default"
              + " ${DEFAULT-VALUE}).")
  int maxFiles;

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  CaptureConfig toConfig() {
    return new CaptureConfig(
        Optional.ofNullable(file).filter(f -> !f.toString().isBlank()),
        sampleRate,
        hashValues,
        maxBytes,
        maxFiles);
  }
}
