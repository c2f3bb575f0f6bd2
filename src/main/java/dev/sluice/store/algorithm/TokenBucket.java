package dev.sluice.store.algorithm;

import dev.sluice.rules.Limit;
import dev.sluice.store.CounterState;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreDataException;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import java.util.List;

/**
 * Refills {@code requests_per_unit} tokens per window continuously, up to {@code burst}; a request
 * takes its hits if the bucket holds them, and a refused request takes nothing. The arithmetic is
 * {@link TokenBucketState}, twinned operation for operation by {@code lua/token_bucket.lua} (on
 * Redis's own clock, so every instance sees one clock). The key needs no window index: the bucket
 * expires when it would be full again.
 *
 * <p>On Redis a bucket is one string, {@code "<tokens> <at micros>"}, under the counter's key plus
 * {@link #REDIS_SUFFIX}: read with GET and written with SET PX only when tokens are taken, which
 * costs Redis less than the hash of {@code tokens}/{@code at} earlier versions kept (HMGET, HSET,
 * PEXPIRE on every take) with the same arithmetic. The suffix keeps the two forms apart: during a
 * rolling upgrade instances of both versions keep separate buckets (each admits at most its own
 * burst) instead of failing on each other's key type, and the old hashes expire by themselves. Not
 * GCRA (one theoretical arrival time): it needs the same three calls ({@code TIME}, {@code GET},
 * {@code SET}), which is where a script's time goes, and its doubles round differently from {@link
 * TokenBucketState}'s, so the stores would no longer answer alike to the token.
 */
public final class TokenBucket implements CountingAlgorithm {
  static final TokenBucket INSTANCE = new TokenBucket();

  /** The script that takes tokens on Redis. */
  static final String SCRIPT = "lua/token_bucket.lua";

  private static final int REPLY_SIZE = 4;

  /** The script's first reply integer for a key that holds something that is not a bucket. */
  private static final long NOT_A_BUCKET = -1;

  /** The script's leading time argument when it is to read Redis {@code TIME} itself. */
  private static final String REDIS_TIME = "";

  /** Appended to a bucket's Redis key: the one-string form (see the class comment). */
  static final String REDIS_SUFFIX = "|s";

  private TokenBucket() {}

  @Override
  public String keyTag() {
    return "tb";
  }

  @Override
  public boolean chargesRefusedHits() {
    return false;
  }

  @Override
  public MemoryCounter.Step takeInMemory(MemoryCounter current, Hit hit, long nowMicros) {
    TokenBucketState.Take take =
        stateOf(current, hit.limit(), nowMicros).take(hit.limit(), hit.hits(), nowMicros);
    Bucket next =
        new Bucket(take.state(), CountingAlgorithm.epochMillis(nowMicros) + take.ttlMillis());
    return new MemoryCounter.Step(next, take.usage());
  }

  /** Refills a stored bucket and takes from it in place, when the take fits. */
  @Override
  public Usage chargeInPlace(MemoryCounter current, Hit hit, long nowMicros) {
    if (!(current instanceof Bucket bucket)) {
      return null;
    }
    // TokenBucketState.take's steps on the stored values: no state or take object per hit.
    TokenBucketState.Refill refill = TokenBucketState.Refill.of(hit.limit(), nowMicros);
    double available =
        TokenBucketState.available(bucket.tokens, bucket.atMicros, refill, nowMicros);
    if (hit.hits() > available) {
      return null; // refused, so not charged: the stored bucket stays as it was
    }
    double left = available - hit.hits();
    bucket.set(
        left,
        nowMicros,
        CountingAlgorithm.epochMillis(nowMicros) + TokenBucketState.ttlMillis(refill, left));
    return TokenBucketState.usage(refill, hit.hits(), true, left);
  }

  @Override
  public CounterState readInMemory(MemoryCounter current, Hit hit, long nowMicros) {
    Usage usage = stateOf(current, hit.limit(), nowMicros).take(hit.limit(), 0, nowMicros).usage();
    return new CounterState(hit.key(), current instanceof Bucket, usage);
  }

  @Override
  public RedisBatch.Reply<Usage> takeOnRedis(RedisBatch redis, Hit hit, long nowMillis) {
    Limit limit = hit.limit();
    List<String> args =
        List.of(
            REDIS_TIME,
            Long.toString(limit.burst()),
            Long.toString(limit.requestsPerUnit()),
            Long.toString(TokenBucketState.windowSeconds(limit, nowMillis)),
            Long.toString(hit.hits()));
    String key = redisKey(redis, hit);
    RedisBatch.Reply<Object> reply = redis.script(SCRIPT, List.of(key), args);
    return () -> usageOf(key, reply.get());
  }

  /**
   * Reads the bucket with Redis {@code TIME} in the same round trip and refills it here with the
   * script's arithmetic, at the rate of the window the script would be sent (the service clock's),
   * so nothing is written by an inspect.
   */
  @Override
  public RedisBatch.Reply<CounterState> readOnRedis(
      RedisBatch redis, Hit hit, long nowMillis, boolean delete) {
    String key = redisKey(redis, hit);
    RedisBatch.Reply<String> state = redis.get(key);
    RedisBatch.Reply<Long> time = redis.timeMicros();
    if (delete) {
      redis.del(key);
    }
    return () -> {
      String stored = state.get();
      long nowMicros = time.get();
      TokenBucketState bucket =
          stored != null ? parse(key, stored) : TokenBucketState.full(hit.limit(), nowMicros);
      TokenBucketState.Refill refill = TokenBucketState.Refill.of(hit.limit(), nowMillis * 1000);
      return new CounterState(key, stored != null, bucket.take(refill, 0, nowMicros).usage());
    };
  }

  /** The Redis key of {@code hit}'s bucket. */
  private static String redisKey(RedisBatch redis, Hit hit) {
    return redis.key(hit.key()) + REDIS_SUFFIX;
  }

  /** A stored {@code "<tokens> <at>"}, as the scripts write it. */
  static TokenBucketState parse(String key, String stored) {
    int space = stored.indexOf(' ');
    try {
      if (space > 0) {
        return new TokenBucketState(
            Double.parseDouble(stored.substring(0, space)),
            Long.parseLong(stored.substring(space + 1)));
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new StoreException("not a token bucket at " + key + ": " + stored);
  }

  /**
   * Reads the script's {@code {allowed, tokens, reset micros, count}} reply for {@code key}.
   *
   * @throws StoreDataException when the key holds something that is not a bucket (the script's
   *     {@code -1}): only this hit fails, not the others sharing its script call
   */
  private static Usage usageOf(String key, Object reply) {
    if (!(reply instanceof List<?> values)
        || values.size() != REPLY_SIZE
        || !values.stream().allMatch(Long.class::isInstance)) {
      throw new StoreException("unexpected " + SCRIPT + " reply: " + reply);
    }
    if ((Long) values.get(0) == NOT_A_BUCKET) {
      throw new StoreDataException(
          "redis: " + key + " holds something that is not a token bucket", null);
    }
    boolean allowed = (Long) values.get(0) == 1L;
    long tokens = (Long) values.get(1);
    long untilResetMicros = (Long) values.get(2);
    return new Usage(!allowed, tokens, untilResetMicros, (Long) values.get(3));
  }

  private static TokenBucketState stateOf(MemoryCounter current, Limit limit, long nowMicros) {
    return current instanceof Bucket bucket
        ? bucket.state()
        : TokenBucketState.full(limit, nowMicros);
  }

  /**
   * One key's bucket, kept until it would be full again. Mutable, so a hot key's take writes its
   * state instead of allocating a bucket (issue 16): only {@link #chargeInPlace} changes a bucket,
   * and only one the store holds, under the lock of its key's stripe, which every read of it holds
   * too.
   */
  private static final class Bucket implements MemoryCounter {
    private double tokens;
    private long atMicros;
    private long expiresAtMillis;

    Bucket(TokenBucketState state, long expiresAtMillis) {
      set(state.tokens(), state.atMicros(), expiresAtMillis);
    }

    void set(double tokens, long atMicros, long expiresAtMillis) {
      this.tokens = tokens;
      this.atMicros = atMicros;
      this.expiresAtMillis = expiresAtMillis;
    }

    /** The state as a value, built on each call: short-lived, for one take or read. */
    TokenBucketState state() {
      return new TokenBucketState(tokens, atMicros);
    }

    @Override
    public long expiresAtMillis() {
      return expiresAtMillis;
    }
  }
}
