package dev.sluice.store.algorithm;

import dev.sluice.rules.Limit;
import dev.sluice.store.CounterState;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Counts hits per window of the limit ({@link dev.sluice.rules.Window}: one unit or several,
 * aligned to the epoch, or a calendar window in a zone), on the service's clock (as in the
 * reference service, so every instance agrees on window boundaries up to clock skew). Every hit is
 * charged, refused or not.
 *
 * <p>Memory: one {@link Window} per key, holding its window index. Redis: the key is the prefix,
 * the counter key and the window index ({@code fw|60|api|user=alice|29334500}); {@code INCRBY} and
 * {@code PEXPIRE key <window> NX} go in one {@code MULTI}/{@code EXEC} ({@link
 * RedisBatch#incrementExpiring}), so no timeout can leave a counter without its expiry (issue
 * 11.9): Redis queues both and applies them only when {@code EXEC} arrives, and drops the queue of
 * a connection that closes before it. Plain commands, not a script: a script call cost Redis three
 * times the CPU of the two commands, and Redis is what every instance shares. The expiry is set
 * once per window and never extended; it is a whole window rather than the rest of it, so an
 * instance whose clock lags still finds its counter, and the index in the key keeps a lingering
 * counter from being reused.
 */
public final class FixedWindow implements CountingAlgorithm {
  static final FixedWindow INSTANCE = new FixedWindow();

  private FixedWindow() {}

  /**
   * The index of the epoch-aligned window of {@code windowMillis} holding {@code nowMillis}:
   * windows since the Unix epoch ({@link dev.sluice.rules.Window#index} for any window).
   */
  public static long index(long nowMillis, long windowMillis) {
    return Math.floorDiv(nowMillis, windowMillis);
  }

  /** Time left in the window holding {@code nowMillis}. */
  public static Duration untilEnd(long nowMillis, long windowMillis) {
    return Duration.ofMillis(windowMillis - Math.floorMod(nowMillis, windowMillis));
  }

  /** The usage a fixed-window counter reports for {@code countAfter} against {@code limit}. */
  public static Usage usage(long countAfter, long limit, Duration untilReset) {
    return usage(countAfter, limit, TimeUnit.MICROSECONDS.convert(untilReset));
  }

  private static Usage usage(long countAfter, long limit, long untilResetMicros) {
    return new Usage(
        countAfter > limit, Math.max(0, limit - countAfter), untilResetMicros, countAfter);
  }

  /**
   * {@code count + hits}, stopping at {@link Long#MAX_VALUE}: a wrapped, negative count would let
   * the next request through and hand a negative increment to the metrics (issue 11.2).
   */
  static long saturatingAdd(long count, long hits) {
    long sum = count + hits;
    return ((count ^ sum) & (hits ^ sum)) < 0 ? (hits < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : sum;
  }

  @Override
  public String keyTag() {
    return "fw";
  }

  @Override
  public boolean chargesRefusedHits() {
    return true;
  }

  @Override
  public MemoryCounter.Step takeInMemory(MemoryCounter current, Hit hit, long nowMicros) {
    long nowMillis = CountingAlgorithm.epochMillis(nowMicros);
    dev.sluice.rules.Window window = hit.limit().window();
    long index = window.index(nowMillis);
    long count = saturatingAdd(countIn(current, index), hit.hits());
    Window next = new Window(index, count, window.endMillis(index));
    return new MemoryCounter.Step(next, usageOf(hit.limit(), count, nowMillis));
  }

  /** Moves a stored window to the current one and counts in place. */
  @Override
  public Usage chargeInPlace(MemoryCounter current, Hit hit, long nowMicros) {
    if (!(current instanceof Window window)) {
      return null;
    }
    long nowMillis = CountingAlgorithm.epochMillis(nowMicros);
    dev.sluice.rules.Window limitWindow = hit.limit().window();
    long index = limitWindow.index(nowMillis);
    long count = saturatingAdd(countIn(window, index), hit.hits());
    window.set(index, count, limitWindow.endMillis(index));
    return usageOf(hit.limit(), count, nowMillis);
  }

  /** The count {@code current} holds for the window {@code index}: 0 for another window. */
  private static long countIn(MemoryCounter current, long index) {
    return current instanceof Window window && window.index == index ? window.count : 0;
  }

  @Override
  public CounterState readInMemory(MemoryCounter current, Hit hit, long nowMicros) {
    long nowMillis = CountingAlgorithm.epochMillis(nowMicros);
    long index = hit.limit().window().index(nowMillis);
    boolean live = current instanceof Window window && window.index == index;
    long count = countIn(current, index);
    return new CounterState(hit.key(), live, usageOf(hit.limit(), count, nowMillis));
  }

  @Override
  public RedisBatch.Reply<Usage> takeOnRedis(RedisBatch redis, Hit hit, long nowMillis) {
    String key = redisKey(redis, hit, nowMillis);
    RedisBatch.Reply<Long> count =
        redis.incrementExpiring(key, hit.hits(), ttlMillis(hit.limit(), nowMillis, redis));
    return () -> usageOf(hit.limit(), count.get(), nowMillis);
  }

  /**
   * How long a window's counter lives on Redis: a whole window (see the class comment), plus the
   * store's random jitter so the counters of one window do not all expire in the same second (the
   * reference's EXPIRATION_JITTER_MAX_SECONDS). Set once per window (NX), so each counter keeps the
   * jitter of its first hit. A calendar window's is the length of the one holding {@code
   * nowMillis}.
   */
  static long ttlMillis(Limit limit, long nowMillis, RedisBatch redis) {
    return limit.window().lengthMillis(nowMillis) + redis.expiryJitterMillis();
  }

  @Override
  public RedisBatch.Reply<CounterState> readOnRedis(
      RedisBatch redis, Hit hit, long nowMillis, boolean delete) {
    String key = redisKey(redis, hit, nowMillis);
    RedisBatch.Reply<String> count = redis.get(key);
    if (delete) {
      redis.del(key);
    }
    return () -> {
      String value = count.get();
      long counted = value == null ? 0 : Long.parseLong(value);
      return new CounterState(key, value != null, usageOf(hit.limit(), counted, nowMillis));
    };
  }

  private static String redisKey(RedisBatch redis, Hit hit, long nowMillis) {
    return redis.key(hit.key()) + "|" + hit.limit().window().index(nowMillis);
  }

  private static Usage usageOf(Limit limit, long countAfter, long nowMillis) {
    long untilEndMillis = limit.window().untilEndMillis(nowMillis);
    return usage(countAfter, limit.requestsPerUnit(), untilEndMillis * 1000);
  }

  /**
   * One key's count in the window {@code index}. Mutable, so a hot key's hit writes three longs
   * instead of allocating a window (issue 16): only {@link #chargeInPlace} changes a window, and
   * only one the store holds, under the lock of its key's stripe, which every read of it holds too.
   */
  private static final class Window implements MemoryCounter {
    private long index;
    private long count;
    private long expiresAtMillis;

    Window(long index, long count, long expiresAtMillis) {
      set(index, count, expiresAtMillis);
    }

    void set(long index, long count, long expiresAtMillis) {
      this.index = index;
      this.count = count;
      this.expiresAtMillis = expiresAtMillis;
    }

    @Override
    public long expiresAtMillis() {
      return expiresAtMillis;
    }
  }
}
