package dev.sluice.store.redis;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * What one hit's commands got from one node: the value, a redirect ({@code MOVED} or {@code ASK})
 * that Redis answered to every one of them instead of running it, or {@code TRYAGAIN} for every one
 * of them.
 *
 * @param <T> the decoded value
 */
sealed interface HitReply<T> {

  /** The hit ran on this node. */
  record Done<T>(T value) implements HitReply<T> {}

  /** None of the hit's commands ran: the node sent it to {@link #target()}. */
  record Redirected<T>(JedisRedirectionException reply) implements HitReply<T> {
    HostAndPort target() {
      return reply.getTargetNode();
    }

    /** ASK (send once to the target, after ASKING) rather than MOVED (the slot is the target's). */
    boolean ask() {
      return reply instanceof JedisAskDataException;
    }
  }

  /**
   * None of the hit's commands ran: their keys are split between the two nodes of a slot being
   * migrated (some moved, some not), which Redis answers {@code TRYAGAIN} instead of running a
   * multi-key script; the same node answers once the rest of them moved.
   */
  record Again<T>(JedisDataException reply) implements HitReply<T> {}
}
