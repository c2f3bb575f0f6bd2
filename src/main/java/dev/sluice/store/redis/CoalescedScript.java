package dev.sluice.store.redis;

import dev.sluice.store.StoreException;
import dev.sluice.store.algorithm.RedisBatch;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Pipeline;

/**
 * The calls of one batch-form script ({@code lua/token_bucket.lua}, {@code lua/sliding_window.lua})
 * that the requests of one lane batch queue, sent as ONE script call after every request has
 * queued: many KEYS, {@link #argsPerKey} ARGV per key after a leading time argument (empty: Redis's
 * own {@code TIME}). Redis then pays one script call and one {@code TIME} per batch rather than per
 * hit, and the server encodes and decodes one command. The script applies the keys in order as one
 * call per key would, so a batch answers as the same calls sent one by one.
 *
 * <p>Each caller reads its own {@link #REPLY_WIDTH} integers of the one reply, exactly what a call
 * of its key alone would have answered. So a key that holds something else fails only its caller's
 * hit: the script answers it with a marker in its slot (the algorithm turns that into {@link
 * dev.sluice.store.StoreDataException}), never with an error of the whole call. An error of the
 * whole call (NOSCRIPT after the EVAL fallback, OOM, READONLY) fails every hit in it, as it would
 * have failed each of their calls. On NOSCRIPT only this one call is sent again with EVAL.
 *
 * <p>Only for lanes of one node: a script may touch only one cluster slot, so cluster lanes send
 * one call per hit. Confined to the lane's writer thread, like its pipeline.
 */
final class CoalescedScript {
  /** Integers per key in the script's reply. */
  static final int REPLY_WIDTH = 4;

  /** The leading time argument that asks the script to read Redis {@code TIME} itself. */
  private static final String REDIS_TIME = "";

  private final LuaScript script;
  private final int argsPerKey;
  private Round round;
  private Round sent;

  /**
   * A batch-form script and the ARGV each key brings, after the one time argument.
   *
   * @param argsPerKey from {@link RedisBatch#COALESCED_SCRIPTS}
   */
  record Form(LuaScript script, int argsPerKey) {}

  /**
   * @param argsPerKey the ARGV each key brings, after the one time argument
   */
  CoalescedScript(LuaScript script, int argsPerKey) {
    this.script = script;
    this.argsPerKey = argsPerKey;
  }

  String resource() {
    return script.resource();
  }

  /** Starts a lane batch: forgets the previous one, also one that failed before it was sent. */
  void begin() {
    round = null;
    sent = null;
  }

  /**
   * Adds one single-key call of the script (its empty time argument, then {@link #argsPerKey} ARGV)
   * to this batch's combined call.
   *
   * @return the key's reply, readable once the pipeline holding the combined call synced
   * @throws IllegalArgumentException when the call is not of that shape
   */
  RedisBatch.Reply<Object> add(List<String> keys, List<String> args) {
    if (keys.size() != 1 || args.size() != argsPerKey + 1 || !REDIS_TIME.equals(args.get(0))) {
      throw new IllegalArgumentException(
          script.resource()
              + " combines calls of 1 key, an empty time and "
              + argsPerKey
              + " args: "
              + keys
              + args);
    }
    if (round == null) {
      round = new Round();
    }
    return round.add(keys.get(0), args);
  }

  /** Queues the combined call, if any key was added since {@link #begin}, at the pipeline's end. */
  void flush(Pipeline pipeline) {
    if (round != null) {
      round.call = script.send(pipeline, round.keys, round.args);
      sent = round;
      round = null;
    }
  }

  /** After the pipeline synced: re-queues the combined call with EVAL if it got NOSCRIPT. */
  boolean resendIfNoScript(Pipeline retry) {
    return sent != null && sent.call.resendIfNoScript(retry);
  }

  /** One batch's keys and arguments, kept for an EVAL re-send, and the call once queued. */
  private final class Round {
    private final List<String> keys = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private LuaScript.Call call;

    Round() {
      args.add(REDIS_TIME);
    }

    RedisBatch.Reply<Object> add(String key, List<String> keyArgs) {
      int slot = keys.size();
      keys.add(key);
      for (int i = 1; i < keyArgs.size(); i++) {
        args.add(keyArgs.get(i)); // after the call's own time argument, which the round has once
      }
      return () -> reply(slot);
    }

    private Object reply(int slot) {
      if (call == null) {
        throw new StoreException(script.resource() + ": the combined call was never sent");
      }
      Object all = call.reply(); // an error of the whole call fails every key in it
      if (!(all instanceof List<?> values) || values.size() != keys.size() * REPLY_WIDTH) {
        throw new StoreException(
            "unexpected " + script.resource() + " reply for " + keys.size() + " keys: " + all);
      }
      int from = slot * REPLY_WIDTH;
      return values.subList(from, from + REPLY_WIDTH);
    }
  }
}
