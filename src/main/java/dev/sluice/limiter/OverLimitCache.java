package dev.sluice.limiter;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Counters known to be over their limit, answered in this process without the store until they can
 * allow again: the end of the window (fixed window) or until the bucket holds enough tokens for the
 * refused request (token bucket). Bounded by entry count; the least recently used go first. Like
 * the reference's local cache, hits answered here are not counted in the store, so the store's
 * count stays lower than the real traffic while a key is cached.
 *
 * <p>The entry is keyed by the counter key AND the limit, so raising a client's override limit
 * takes effect at once (the reference keeps rejecting until the window ends, its issue #1077).
 * Thread-safe.
 */
public final class OverLimitCache {
  private final Clock clock;
  private final Cache<String, Long> untilMillis;

  /**
   * @param maxEntries 0 disables the cache
   */
  public OverLimitCache(long maxEntries, Clock clock) {
    this.clock = clock;
    this.untilMillis =
        maxEntries <= 0
            ? null
            : Caffeine.newBuilder()
                .executor(Runnable::run)
                .maximumSize(maxEntries)
                .ticker(ticker(clock))
                .expireAfter(new UntilAllowed(clock))
                .build();
  }

  public static OverLimitCache disabled() {
    return new OverLimitCache(0, Clock.systemUTC());
  }

  public boolean enabled() {
    return untilMillis != null;
  }

  /** The local answer for {@code hit}, when its counter is known to be over its limit. */
  public Optional<Usage> lookup(Hit hit) {
    Long until = untilMillis.getIfPresent(cacheKey(hit));
    long now = clock.millis();
    if (until == null || until <= now) {
      return Optional.empty();
    }
    long capacity = hit.limit().capacity();
    return Optional.of(new Usage(true, 0, Duration.ofMillis(until - now), capacity + hit.hits()));
  }

  /** Remembers a counter the store just reported over its limit. */
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
