package dev.sluice.store.algorithm;

import dev.sluice.store.Charge;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Charge} on Redis as one run of {@code lua/charge.lua} over all keys of its groups, and
 * the refund of a cluster's charge-then-refund ({@code lua/refund.lua}). The script holds each
 * algorithm's arithmetic a second time (beside its own script) because a Lua script cannot call
 * another; the contract tests run the same sequences on both stores to keep them alike.
 *
 * <p>Keys: a hit's base key is the Redis key of its group's tag plus the rest of the hit's own key
 * ({@link #baseKey}). For one limit that is exactly the key the per-hit commands use; for a {@code
 * rate_limits} list the tag is the descriptor's and every limit's key extends it, so on a cluster
 * all of them share one hash tag ({@code prefix{ml|api|user=alice}|fw|1}) and the script runs in
 * one slot. The script is given every key it touches, so Redis routes it by them: a fixed window's
 * key with the window index appended ({@link #scriptKey}), a sliding window's or a bucket's hash. A
 * script that touched an undeclared key would be routed by the declared ones only, and on a cluster
 * could run on a slot's importing node behind ASKING before its keys had moved, reading nothing
 * there (issue 9).
 */
public final class ChargeScript {
  /** Decides and charges a whole charge. */
  public static final String SCRIPT = "lua/charge.lua";

  /** Gives back what a refused request's groups were charged (cluster only). */
  public static final String REFUND = "lua/refund.lua";

  private static final int REPLY_PER_HIT = 6;

  private ChargeScript() {}

  /**
   * One hit's answer.
   *
   * @param fits the hit fitted its limit
   * @param charged the hit was charged
   * @param key the Redis key charged (a fixed window's key with its index, a sliding window's or a
   *     bucket's hash), for a refund
   * @param index the window charged (a sliding window's field in {@code key}), 0 for a bucket and a
   *     fixed window (whose {@code key} names its window)
   */
  public record Counted(Usage usage, boolean fits, boolean charged, String key, long index) {}

  /** The base key of {@code hit} in {@code group}: the tag's Redis key plus the rest of its key. */
  static String baseKey(RedisBatch redis, Charge.Group group, Hit hit) {
    if (!hit.key().startsWith(group.tag())) {
      throw new IllegalArgumentException("hit key " + hit.key() + " outside tag " + group.tag());
    }
    return redis.key(group.tag()) + hit.key().substring(group.tag().length());
  }

  /**
   * The key the script touches for {@code hit}: a fixed window's carries the window's index, a
   * bucket's the suffix of its one-string form, as the per-hit commands use them.
   */
  static String scriptKey(RedisBatch redis, Charge.Group group, Hit hit, long nowMillis) {
    String base = baseKey(redis, group, hit);
    CountingAlgorithm algorithm = CountingAlgorithm.of(hit.limit().algorithm());
    if (algorithm == FixedWindow.INSTANCE) {
      return base + "|" + hit.limit().window().index(nowMillis);
    }
    if (algorithm == TokenBucket.INSTANCE) {
      return base + TokenBucket.REDIS_SUFFIX;
    }
    return base;
  }

  /**
   * Queues one script run over every hit of {@code groups}.
   *
   * @param nowMillis the service clock, for fixed-window indexes
   * @return one answer per hit, in the order of {@link Charge#hits()}
   */
  public static RedisBatch.Reply<List<Counted>> queue(
      RedisBatch redis, List<Charge.Group> groups, long nowMillis) {
    List<String> keys = new ArrayList<>();
    List<String> args = new ArrayList<>();
    args.add(Long.toString(nowMillis));
    args.add(Integer.toString(groups.size()));
    for (Charge.Group group : groups) {
      args.add(Integer.toString(group.policy().ordinal()));
      args.add(Integer.toString(group.vote().ordinal()));
      args.add(group.answered() ? "1" : "0");
      args.add(Integer.toString(group.hits().size()));
    }
    List<Hit> hits = new ArrayList<>();
    for (Charge.Group group : groups) {
      for (Hit hit : group.hits()) {
        hits.add(hit);
        keys.add(scriptKey(redis, group, hit, nowMillis));
        args.add(CountingAlgorithm.of(hit.limit().algorithm()).keyTag());
        args.add(Long.toString(hit.limit().requestsPerUnit()));
        args.add(Long.toString(hit.limit().burst()));
        args.add(Long.toString(TokenBucketState.windowSeconds(hit.limit(), nowMillis)));
        args.add(Long.toString(hit.hits()));
        args.add(Long.toString(fixedWindowStart(hit, nowMillis)));
      }
    }
    RedisBatch.Reply<Object> reply = redis.script(SCRIPT, keys, args);
    return () -> countedOf(reply.get(), hits, keys);
  }

  /**
   * Where the fixed window holding {@code nowMillis} starts, for its reset: the script cannot
   * compute a calendar window; 0 for the other algorithms.
   */
  private static long fixedWindowStart(Hit hit, long nowMillis) {
    if (CountingAlgorithm.of(hit.limit().algorithm()) != FixedWindow.INSTANCE) {
      return 0;
    }
    dev.sluice.rules.Window window = hit.limit().window();
    return window.startMillis(window.index(nowMillis));
  }

  /** Queues the refund of {@code charged} (each a hit and the key it was charged under). */
  public static RedisBatch.Reply<Object> refund(RedisBatch redis, List<Refund> charged) {
    List<String> keys = new ArrayList<>(charged.size());
    List<String> args = new ArrayList<>(charged.size() * 3);
    for (Refund refund : charged) {
      keys.add(refund.key());
      args.add(CountingAlgorithm.of(refund.hit().limit().algorithm()).keyTag());
      args.add(Long.toString(refund.hit().hits()));
      boolean bucket =
          CountingAlgorithm.of(refund.hit().limit().algorithm()) == TokenBucket.INSTANCE;
      args.add(Long.toString(bucket ? refund.hit().limit().burst() : refund.index()));
    }
    return redis.script(REFUND, keys, args);
  }

  /** A hit to give back, under the key (and, for a sliding window, the window) it was charged. */
  public record Refund(Hit hit, String key, long index) {}

  private static List<Counted> countedOf(Object reply, List<Hit> hits, List<String> keys) {
    if (!(reply instanceof List<?> values)
        || values.size() != hits.size() * REPLY_PER_HIT
        || !values.stream().allMatch(Long.class::isInstance)) {
      throw new StoreException("unexpected " + SCRIPT + " reply: " + reply);
    }
    List<Counted> counted = new ArrayList<>(hits.size());
    for (int i = 0; i < hits.size(); i++) {
      int at = i * REPLY_PER_HIT;
      boolean fits = (Long) values.get(at) == 1L;
      boolean charged = (Long) values.get(at + 1) == 1L;
      long remaining = (Long) values.get(at + 2);
      long resetMicros = (Long) values.get(at + 3);
      long count = (Long) values.get(at + 4);
      long index = (Long) values.get(at + 5);
      Usage usage = new Usage(!fits, remaining, resetMicros, count);
      counted.add(new Counted(usage, fits, charged, keys.get(i), index));
    }
    return counted;
  }
}
