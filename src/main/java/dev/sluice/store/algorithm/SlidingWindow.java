package dev.sluice.store.algorithm;

import dev.sluice.store.CounterState;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreDataException;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import java.util.List;
import java.util.Map;

/**
 * A rolling window approximated from two epoch-aligned fixed windows of the limit's length (its
 * unit times its multiplier, at most a day), as Cloudflare does: the previous window's count
 * weighted by its share still inside the rolling window, plus the current count ({@link
 * SlidingWindowEstimate}, twinned by {@code lua/sliding_window.lua} on Redis's own clock). Only
 * allowed hits are counted, so a refused request takes nothing.
 *
 * <p>Memory: one {@link Windows} per key, holding both counts. Redis: one hash per counter at the
 * counter key ({@code sw|60|api|user=alice}; on a cluster {@code {sw|60|api|user=alice}}), one
 * field per window named by its index ({@code 29334500}), expiring two windows after the newest
 * window began. One key, not one per window: a script must be given every key it touches, and the
 * window's index comes from Redis's clock inside the script, so the caller cannot name a window's
 * key; with one key, Redis routes the script by the key it really reads, and a slot migration moves
 * both windows at once (issue 9: with a key per window, a half-migrated slot ran the script on the
 * importing node, which had neither window yet, and over-admitted).
 */
public final class SlidingWindow implements CountingAlgorithm {
  static final SlidingWindow INSTANCE = new SlidingWindow();

  /** The script that decides and counts on Redis. */
  static final String SCRIPT = "lua/sliding_window.lua";

  private static final int REPLY_SIZE = 4;

  /** The script's first reply integer for a key that holds something that is not a window hash. */
  private static final long NOT_A_WINDOW = -1;

  /** The script's leading time argument when it is to read Redis {@code TIME} itself. */
  private static final String REDIS_TIME = "";

  private SlidingWindow() {}

  @Override
  public String keyTag() {
    return "sw";
  }

  @Override
  public boolean chargesRefusedHits() {
    return false;
  }

  @Override
  public MemoryCounter.Step takeInMemory(MemoryCounter current, Hit hit, long nowMicros) {
    long window = SlidingWindowEstimate.windowSeconds(hit.limit()) * 1_000_000L;
    long index = Math.floorDiv(nowMicros, window);
    SlidingWindowEstimate estimate = estimateOf(current, index, nowMicros - index * window);
    SlidingWindowEstimate.Take take = estimate.take(hit.limit(), hit.hits());
    long counted = estimate.current() + (take.allowed() ? hit.hits() : 0);
    long expiresAtMillis = (index + 2) * (window / 1000);
    Windows next = new Windows(index, estimate.previous(), counted, expiresAtMillis);
    return new MemoryCounter.Step(next, take.usage());
  }

  @Override
  public CounterState readInMemory(MemoryCounter current, Hit hit, long nowMicros) {
    long window = SlidingWindowEstimate.windowSeconds(hit.limit()) * 1_000_000L;
    long index = Math.floorDiv(nowMicros, window);
    SlidingWindowEstimate estimate = estimateOf(current, index, nowMicros - index * window);
    boolean live = estimate.previous() > 0 || estimate.current() > 0;
    return new CounterState(hit.key(), live, estimate.take(hit.limit(), 0).usage());
  }

  @Override
  public RedisBatch.Reply<Usage> takeOnRedis(RedisBatch redis, Hit hit, long nowMillis) {
    List<String> args =
        List.of(
            REDIS_TIME,
            Long.toString(hit.limit().requestsPerUnit()),
            Long.toString(SlidingWindowEstimate.windowSeconds(hit.limit())),
            Long.toString(hit.hits()));
    String key = baseKey(redis, hit);
    RedisBatch.Reply<Object> reply = redis.script(SCRIPT, List.of(key), args);
    return () -> usageOf(key, reply.get());
  }

  /**
   * Reads both windows on the service clock (an operator's view, changing nothing), deleting them
   * when {@code delete}.
   */
  @Override
  public RedisBatch.Reply<CounterState> readOnRedis(
      RedisBatch redis, Hit hit, long nowMillis, boolean delete) {
    long windowMicros = SlidingWindowEstimate.windowSeconds(hit.limit()) * 1_000_000;
    String base = baseKey(redis, hit);
    // The script counts in the windows of Redis's TIME, so a read picks its two windows by that
    // time too, read in the same round trip, not by this instance's clock, which may be off. The
    // hash holds only the current and the previous window (the script deletes older ones).
    RedisBatch.Reply<Map<String, String>> windows = redis.hgetAll(base);
    RedisBatch.Reply<Long> redisTime = redis.timeMicros();
    if (delete) {
      redis.del(base);
    }
    return () -> {
      long nowMicros = redisTime.get();
      long index = Math.floorDiv(nowMicros, windowMicros);
      Map<String, String> counts = windows.get();
      String now = counts.get(Long.toString(index));
      String before = counts.get(Long.toString(index - 1));
      SlidingWindowEstimate estimate =
          new SlidingWindowEstimate(count(before), count(now), nowMicros - index * windowMicros);
      boolean exists = now != null || before != null;
      return new CounterState(base, exists, estimate.take(hit.limit(), 0).usage());
    };
  }

  /**
   * The counter's hash as the batch names it. No hash tag of our own: on a cluster {@link
   * RedisBatch#key} already wraps the counter key in one ({@code prefix{counter key}}), and the
   * store routes the hit by that same tag; a second pair of braces would move it elsewhere (MOVED).
   */
  private static String baseKey(RedisBatch redis, Hit hit) {
    return redis.key(hit.key());
  }

  private static long count(String value) {
    return value == null ? 0 : Long.parseLong(value);
  }

  /** Both counts as seen from window {@code index}: a stored window may have become previous. */
  private static SlidingWindowEstimate estimateOf(
      MemoryCounter stored, long index, long elapsedMicros) {
    if (stored instanceof Windows w && w.index() == index) {
      return new SlidingWindowEstimate(w.previous(), w.current(), elapsedMicros);
    }
    if (stored instanceof Windows w && w.index() == index - 1) {
      return new SlidingWindowEstimate(w.current(), 0, elapsedMicros);
    }
    return new SlidingWindowEstimate(0, 0, elapsedMicros);
  }

  /**
   * Reads the script's {@code {allowed, remaining, reset micros, count}} reply for {@code key}.
   *
   * @throws StoreDataException when the key holds something that is not a window hash (the script's
   *     {@code -1}): only this hit fails, not the others sharing its script call
   */
  private static Usage usageOf(String key, Object reply) {
    if (!(reply instanceof List<?> values)
        || values.size() != REPLY_SIZE
        || !values.stream().allMatch(Long.class::isInstance)) {
      throw new StoreException("unexpected " + SCRIPT + " reply: " + reply);
    }
    if ((Long) values.get(0) == NOT_A_WINDOW) {
      throw new StoreDataException(
          "redis: " + key + " holds something that is not a sliding window's hash", null);
    }
    boolean allowed = (Long) values.get(0) == 1L;
    long untilResetMicros = (Long) values.get(2);
    return new Usage(!allowed, (Long) values.get(1), untilResetMicros, (Long) values.get(3));
  }

  /** One key's counts in window {@code index} and the one before it. */
  private record Windows(long index, long previous, long current, long expiresAtMillis)
      implements MemoryCounter {}
}
