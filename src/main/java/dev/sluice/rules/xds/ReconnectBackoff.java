package dev.sluice.rules.xds;

import dev.sluice.config.XdsConfig;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Waits between reconnects to the management server: exponential from the initial wait to the
 * maximum, each wait spread by the jitter so that many Sluice instances losing one server do not
 * come back in lockstep. Not thread-safe; the client calls it from its one stream callback at a
 * time.
 */
final class ReconnectBackoff {
  private final XdsConfig.Backoff settings;
  private final DoubleSupplier random;
  private int failures;

  /**
   * @param random uniform in [0, 1), e.g. {@code ThreadLocalRandom.current()::nextDouble}
   */
  ReconnectBackoff(XdsConfig.Backoff settings, DoubleSupplier random) {
    this.settings = settings;
    this.random = random;
  }

  /** The wait before the next attempt; each call counts one more failed attempt. */
  Duration next() {
    long initial = settings.initial().toMillis();
    long max = settings.max().toMillis();
    long base = max;
    if (failures < 62 && initial <= max >> Math.min(failures, 62)) {
      base = Math.min(max, initial << failures);
    }
    failures++;
    double spread = settings.jitter() * (2 * random.getAsDouble() - 1);
    return Duration.ofMillis(Math.max(1, Math.round(base * (1 + spread))));
  }

  /** A response arrived: the next loss starts again from the initial wait. */
  void reset() {
    failures = 0;
  }
}
