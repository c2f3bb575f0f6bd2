package dev.sluice.store.algorithm;

import java.util.List;
import java.util.Map;

/**
 * The Redis commands an algorithm may queue for one request, sent in the pipeline the request
 * joins. Replies are read only after the pipeline was sent, through the {@link Reply} each command
 * returns. Implemented by the Redis store over a connection's pipeline; a cluster-aware store can
 * route each command to the node that holds its key underneath this interface. Confined to the
 * thread that owns the pipeline.
 */
public interface RedisBatch {

  /**
   * Milliseconds to add to a fixed-window counter's expiry, drawn anew per call between 0 and the
   * store's {@code --expiration-jitter}; always 0 without one.
   */
  long expiryJitterMillis();

  /** The Redis key of {@code counterKey}: with the store's prefix. */
  String key(String counterKey);

  /**
   * Runs the script (EVALSHA; when Redis lost it, only this call is re-sent with EVAL). A call of
   * one of {@link #COALESCED_SCRIPTS} may instead join the one call the lane sends for its whole
   * batch, which answers this call's key exactly as a call of its own would.
   *
   * @param resource the script's class-path resource, e.g. {@code lua/token_bucket.lua}; must be
   *     one of {@link #SCRIPTS}
   */
  Reply<Object> script(String resource, List<String> keys, List<String> args);

  /**
   * {@code INCRBY key hits} and {@code PEXPIRE key ttlMillis NX} as one transaction ({@code MULTI}
   * ... {@code EXEC}): Redis applies both or neither, so a round trip cut off by a timeout or a
   * dropped connection cannot leave the counter without its expiry. Cheaper for Redis than a script
   * (no script lookup, no Lua call per command), and as exact: a transaction runs alone.
   *
   * @return the count after the increment
   */
  Reply<Long> incrementExpiring(String key, long hits, long ttlMillis);

  Reply<String> get(String key);

  /** Every field of a hash; empty when the key is missing. */
  Reply<Map<String, String>> hgetAll(String key);

  /** Redis {@code TIME}, in microseconds since the epoch. */
  Reply<Long> timeMicros();

  void del(String key);

  /** The live-instance heartbeat of split consistency ({@code CounterSync#heartbeat}). */
  String INSTANCES_SCRIPT = "lua/instances.lua";

  /** Every script the store sends, so a connection can cache them when it opens. */
  List<String> SCRIPTS =
      List.of(
          TokenBucket.SCRIPT,
          SlidingWindow.SCRIPT,
          INSTANCES_SCRIPT,
          ChargeScript.SCRIPT,
          ChargeScript.REFUND);

  /**
   * The scripts in batch form, each with its ARGV per key: one call takes many keys, a leading time
   * argument (empty: Redis's own {@code TIME}) and that many ARGV per key, and answers 4 integers
   * per key in order, as one call per key would. An algorithm sends one key per {@link #script}
   * call (the empty time, then its ARGV); on one node the lane combines the calls of its whole
   * batch into one, on a cluster each goes alone.
   */
  Map<String, Integer> COALESCED_SCRIPTS = Map.of(TokenBucket.SCRIPT, 4, SlidingWindow.SCRIPT, 3);

  /**
   * A reply, readable once the pipeline was sent.
   *
   * @param <T> the decoded value
   */
  @FunctionalInterface
  interface Reply<T> {
    /**
     * @throws dev.sluice.store.StoreException when the reply is not what the command returns
     * @throws redis.clients.jedis.exceptions.JedisException when the reply is an error
     */
    T get();
  }
}
