package dev.sluice.limiter;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The enabled {@link OverLimitCache}: bounded by entry count, the least recently used go first. The
 * entry is keyed by the counter key AND the limit, so raising a client's override limit takes
 * effect at once (the reference keeps rejecting until the window ends, its issue #1077).
 * Thread-safe.
 */
final class LruOverLimitCache implements OverLimitCache {
  private final Clock clock;
  private final SluiceMetrics metrics;
  private final Cache<String, Long> untilMillis;

  LruOverLimitCache(long maxEntries, Clock clock, SluiceMetrics metrics) {
    this.clock = clock;
    this.metrics = metrics;
    this.untilMillis =
        Caffeine.newBuilder()
            .executor(Runnable::run)
            .maximumSize(maxEntries)
            .ticker(ticker(clock))
            .expireAfter(new UntilAllowed(clock))
            .build();
  }

  @Override
  public Optional<Usage> lookup(Hit hit) {
    Long until = untilMillis.getIfPresent(cacheKey(hit));
    long now = clock.millis();
    if (until == null || until <= now) {
      metrics.localCacheLookup(false);
      return Optional.empty();
    }
    metrics.localCacheLookup(true);
    long capacity = hit.limit().capacity();
    return Optional.of(new Usage(true, 0, Duration.ofMillis(until - now), capacity + hit.hits()));
  }

  @Override
  public void remember(Hit hit, Usage usage) {
    if (usage.overLimit() && usage.untilReset().toMillis() > 0) {
      untilMillis.put(cacheKey(hit), clock.millis() + usage.untilReset().toMillis());
    }
  }

  private static String cacheKey(Hit hit) {
    return hit.key() + "|" + hit.limit().requestsPerUnit() + "|" + hit.limit().burst();
  }

  private static Ticker ticker(Clock clock) {
    return () -> TimeUnit.MILLISECONDS.toNanos(clock.millis());
  }

  private record UntilAllowed(Clock clock) implements Expiry<String, Long> {
    @Override
    public long expireAfterCreate(String key, Long until, long currentTime) {
      return TimeUnit.MILLISECONDS.toNanos(Math.max(0, until - clock.millis()));
    }

    @Override
    public long expireAfterUpdate(String key, Long until, long currentTime, long currentDuration) {
      return expireAfterCreate(key, until, currentTime);
    }

    @Override
    public long expireAfterRead(String key, Long until, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }
}
