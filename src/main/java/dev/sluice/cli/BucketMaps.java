package dev.sluice.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/** Parses the {@code --bucket k=v[,k=v...]} of {@code check} and {@code explain}. */
final class BucketMaps {
  private BucketMaps() {}

  /**
   * @throws IllegalArgumentException naming the text when a pair is not {@code k=v} with both sides
   *     non-empty, or a key repeats
   */
  static Map<String, String> parse(String text) {
    Map<String, String> bucket = new LinkedHashMap<>();
    for (String pair : text.split(",")) {
      int eq = pair.indexOf('=');
      if (eq < 1
          || eq == pair.length() - 1
          || bucket.put(pair.substring(0, eq), pair.substring(eq + 1)) != null) {
        throw new IllegalArgumentException(
            "--bucket wants k=v[,k=v...] with distinct keys: " + text);
      }
    }
    return bucket;
  }
}
