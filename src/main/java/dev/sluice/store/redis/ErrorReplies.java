package dev.sluice.store.redis;

import dev.sluice.store.StoreDataException;
import dev.sluice.store.StoreException;
import java.util.Set;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Sorts Redis error replies into those about the store's state, which count towards the breaker,
 * and those about one key's data (e.g. {@code ERR increment or decrement would overflow}, {@code
 * WRONGTYPE}), which must not: a caller could otherwise poison one key and open the breaker for
 * every key (issue 11.1).
 */
final class ErrorReplies {
  /** Error codes (the reply's first word) that say the whole server cannot serve writes now. */
  private static final Set<String> STORE_STATE =
      Set.of(
          "OOM",
          "READONLY",
          "LOADING",
          "MASTERDOWN",
          "BUSY",
          "MISCONF",
          "NOAUTH",
          "NOPERM",
          "WRONGPASS",
          "CLUSTERDOWN",
          "TRYAGAIN",
          "NOREPLICAS",
          "MOVED",
          "ASK",
          "NOSCRIPT");

  private ErrorReplies() {}

  static StoreException classify(String address, JedisDataException reply) {
    String message = String.valueOf(reply.getMessage());
    int space = message.indexOf(' ');
    String code = space < 0 ? message : message.substring(0, space);
    String text = "redis at " + address + ": command failed: " + message;
    return STORE_STATE.contains(code)
        ? new StoreException(text, reply)
        : new StoreDataException(text, reply);
  }
}
