package dev.sluice.store;

import java.util.Locale;

/**
 * Where a request whose caller stopped waiting was dropped: the {@code stage} label of {@code
 * sluice_requests_expired_total}. A fixed set, so the metric's series stay bounded.
 */
public enum Expiry {
  /** Its deadline had passed when it arrived: nothing was matched, charged or sent. */
  ARRIVAL,
  /**
   * Its deadline passed while it waited for the store (queued behind other requests on a Redis
   * lane, or a stalled connection): dropped before it was written, so not charged.
   */
  QUEUED,
  /** Its caller cancelled or went away before it was written to the store: not charged. */
  CANCELLED;

  /** The metric label: {@code arrival}, {@code queued} or {@code cancelled}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The stage of a request found not waiting ({@code state} other than WAITING) in a queue. */
  public static Expiry whileQueued(Patience.State state) {
    return state == Patience.State.CANCELLED ? CANCELLED : QUEUED;
  }
}
