package dev.sluice.store.memory;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.FixedWindow;
import dev.sluice.store.Hit;
import dev.sluice.store.TokenBucketState;
import dev.sluice.store.Usage;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * Both algorithms in this process. Each counter is updated inside {@code compute} on Caffeine's
 * concurrent map, which makes read-modify-write atomic per key without a lock of our own. Entries
 * expire at the end of their window (fixed window) or when the bucket would be full again, on the
 * injected clock.
 */
public final class InMemoryCounterStore implements CounterStore {
  private final Clock clock;
  private final Cache<String, Counter> cache;
  private final ConcurrentMap<String, Counter> counters;

  public InMemoryCounterStore(Clock clock) {
    this.clock = clock;
    this.cache =
        Caffeine.newBuilder()
            .ticker(clockTicker(clock))
            .expireAfter(new UntilCounterExpires())
            .build();
    this.counters = cache.asMap();
  }

  @Override
  public CompletableFuture<List<Usage>> acquire(List<Hit> hits) {
    List<Usage> usages = new ArrayList<>(hits.size());
    Instant now = clock.instant();
    for (Hit hit : hits) {
      usages.add(apply(hit, now));
    }
    return CompletableFuture.completedFuture(usages);
  }

  private Usage apply(Hit hit, Instant now) {
    Limit limit = hit.limit();
    long nowMillis = now.toEpochMilli();
    if (limit.algorithm() == Algorithm.TOKEN_BUCKET) {
      long nowMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
      Usage[] out = new Usage[1];
      counters.compute(
          hit.key(),
          (key, old) -> {
            TokenBucketState state =
                old instanceof Bucket bucket
                    ? bucket.state()
                    : TokenBucketState.full(limit, nowMicros);
            TokenBucketState.Take take = state.take(limit, hit.hits(), nowMicros);
            out[0] = take.usage();
            return new Bucket(take.state(), nowMillis + take.ttlMillis());
          });
      return out[0];
    }
    long windowMillis = limit.unit().millis();
    long index = FixedWindow.index(nowMillis, windowMillis);
    Counter counter =
        counters.compute(
            hit.key(),
            (key, old) -> {
              long before =
                  old instanceof Window window && window.index() == index ? window.count() : 0;
              return new Window(index, before + hit.hits(), (index + 1) * windowMillis);
            });
    long countAfter = ((Window) counter).count();
    return FixedWindow.usage(
        countAfter, limit.requestsPerUnit(), FixedWindow.untilEnd(nowMillis, windowMillis));
  }

  @Override
  public CompletableFuture<CounterState> inspect(Hit hit) {
    return CompletableFuture.completedFuture(read(hit, counters.get(hit.key()), clock.instant()));
  }

  @Override
  public CompletableFuture<CounterState> reset(Hit hit) {
    Instant now = clock.instant();
    Counter removed = counters.remove(hit.key());
    return CompletableFuture.completedFuture(read(hit, removed, now));
  }

  /** The state {@code counter} (null when absent) shows at {@code now}, changing nothing. */
  private static CounterState read(Hit hit, Counter counter, Instant now) {
    Limit limit = hit.limit();
    long nowMillis = now.toEpochMilli();
    if (limit.algorithm() == Algorithm.TOKEN_BUCKET) {
      long nowMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
      TokenBucketState state =
          counter instanceof Bucket bucket
              ? bucket.state()
              : TokenBucketState.full(limit, nowMicros);
      Usage usage = state.take(limit, 0, nowMicros).usage();
      return new CounterState(hit.key(), counter instanceof Bucket, usage);
    }
    long windowMillis = limit.unit().millis();
    long index = FixedWindow.index(nowMillis, windowMillis);
    boolean current = counter instanceof Window window && window.index() == index;
    long count = current ? ((Window) counter).count() : 0;
    Usage usage =
        FixedWindow.usage(
            count, limit.requestsPerUnit(), FixedWindow.untilEnd(nowMillis, windowMillis));
    return new CounterState(hit.key(), current, usage);
  }

  @Override
  public void ping() {}

  @Override
  public String kind() {
    return "memory";
  }

  /** Number of live counters after dropping expired ones; for tests and metrics. */
  public long size() {
    cache.cleanUp();
    return cache.estimatedSize();
  }

  @Override
  public void close() {
    counters.clear();
  }

  private static Ticker clockTicker(Clock clock) {
    return () -> TimeUnit.MILLISECONDS.toNanos(clock.millis());
  }

  /** A counter's value; each knows the epoch millisecond after which it is worthless. */
  private sealed interface Counter permits Window, Bucket {
    long expiresAtMillis();
  }

  private record Window(long index, long count, long expiresAtMillis) implements Counter {}

  private record Bucket(TokenBucketState state, long expiresAtMillis) implements Counter {}

  private final class UntilCounterExpires implements Expiry<String, Counter> {
    @Override
    public long expireAfterCreate(String key, Counter value, long currentTime) {
      return remainingNanos(value);
    }

    @Override
    public long expireAfterUpdate(
        String key, Counter value, long currentTime, long currentDuration) {
      return remainingNanos(value);
    }

    @Override
    public long expireAfterRead(String key, Counter value, long currentTime, long currentDuration) {
      return currentDuration;
    }

    private long remainingNanos(Counter value) {
      return TimeUnit.MILLISECONDS.toNanos(Math.max(0, value.expiresAtMillis() - clock.millis()));
    }
  }
}
