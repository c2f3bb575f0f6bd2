package dev.sluice.store.redis;

import dev.sluice.store.Expiry;
import dev.sluice.store.Patience;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreExpiredException;
import dev.sluice.store.StoreShedException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a {@link PipelineLane} holds: its queue of requests and the count of hits waiting or in
 * flight, bounded by {@code maxPendingHits}. Decides which requests are queued, shed or dropped,
 * without a connection, so it is tested on its own.
 *
 * <p>Dead work never fills it. A request whose caller has stopped waiting ({@link Patience}) is not
 * queued ({@link Expiry#QUEUED} or {@link Expiry#CANCELLED} at once), is dropped instead of written
 * when the writer reaches it ({@link #takeBatch}), and is dropped first when the lane is full: a
 * request that finds no room drops the expired ones at the head of the queue, oldest first, and
 * only then, when the live work alone fills the lane, is shed ({@link StoreShedException}). So
 * shedding refuses the newest work at once, and only for lack of room for live work. Each dropped
 * request is failed with {@link StoreExpiredException}, so the failure mode answers it, and nothing
 * of it reaches Redis. Expired requests behind a live one at the head stay until the writer or a
 * later request reaches them: the queue is first in, first out, and deadlines are nearly so.
 *
 * <p>Thread-safety: {@link #offer} and {@link #load} from any thread; {@link #takeBatch} and {@link
 * #written} from the lane's writer thread; {@link #failAll} from any thread. A request leaves the
 * queue through {@link PendingRequest#claim}, so it is answered once whoever reaches it.
 */
final class LaneBacklog {
  private final LaneQueue<PendingRequest<?>> queue;
  private final int maxPendingHits;
  private final String address;
  private final AtomicInteger pendingHits = new AtomicInteger();

  /**
   * @param consumer the lane's writer thread, the one that calls {@link #takeBatch}
   * @param maxPendingHits hits waiting or in flight before requests are shed
   * @param address the node, for messages
   */
  LaneBacklog(Thread consumer, int maxPendingHits, String address) {
    this.queue = new LaneQueue<>(consumer);
    this.maxPendingHits = maxPendingHits;
    this.address = address;
  }

  /** Hits queued or in flight: the lane's load. */
  int load() {
    return pendingHits.get();
  }

  /**
   * Queues {@code request}, or answers it at once: dropped when its caller has stopped waiting,
   * shed when the live work already queued fills the lane. A request alone on an empty lane is
   * always taken, however large.
   *
   * @return true when queued
   */
  boolean offer(PendingRequest<?> request) {
    Patience.State caller = request.callerState();
    if (caller != Patience.State.WAITING) {
      request.fail(expired(Expiry.whileQueued(caller)));
      return false;
    }
    if (!reserve(request.hits()) && (dropExpiredHead() == 0 || !reserve(request.hits()))) {
      request.fail(shed(request.hits()));
      return false;
    }
    queue.add(request);
    return true;
  }

  private boolean reserve(int hits) {
    int after = pendingHits.addAndGet(hits);
    if (after > maxPendingHits && after > hits) {
      pendingHits.addAndGet(-hits);
      return false;
    }
    return true;
  }

  /**
   * Drops the requests at the head of the queue whose callers stopped waiting, up to the first one
   * still waiting.
   *
   * @return how many hits that freed
   */
  int dropExpiredHead() {
    int freed = 0;
    for (PendingRequest<?> head = queue.peek(); head != null; head = queue.peek()) {
      Patience.State caller = head.callerState();
      if (caller == Patience.State.WAITING) {
        break;
      }
      if (queue.remove(head) && head.claim()) {
        pendingHits.addAndGet(-head.hits());
        freed += head.hits();
        head.fail(expired(Expiry.whileQueued(caller)));
      }
    }
    return freed;
  }

  /**
   * Waits for the first request, then takes whole requests while they fit in {@code maxHits}.
   * Writer thread only. A request whose caller stopped waiting is answered and left out: what the
   * batch holds was live when taken, and the writer checks again just before writing ({@link
   * #stillWaiting}).
   *
   * @throws InterruptedException when the writer is interrupted (the lane closing)
   */
  List<PendingRequest<?>> takeBatch(int maxHits) throws InterruptedException {
    List<PendingRequest<?>> batch = new ArrayList<>();
    int hits = 0;
    while (batch.isEmpty()) {
      hits = admit(queue.take(), batch, hits);
    }
    for (PendingRequest<?> next = queue.peek();
        next != null && hits + next.hits() <= maxHits;
        next = queue.peek()) {
      PendingRequest<?> taken = queue.poll(); // null only when close() emptied the queue
      if (taken == null) {
        break;
      }
      hits = admit(taken, batch, hits);
    }
    return batch;
  }

  private int admit(PendingRequest<?> request, List<PendingRequest<?>> batch, int hits) {
    if (!request.claim()) {
      return hits; // dropped by another thread, which answered it and freed its hits
    }
    if (!stillWaiting(request)) {
      pendingHits.addAndGet(-request.hits());
      return hits;
    }
    batch.add(request);
    return hits + request.hits();
  }

  /**
   * Whether {@code request}, taken by the writer, is still to be written; if its caller stopped
   * waiting it is answered {@link StoreExpiredException} here. Writer thread only; its hits are
   * freed with its batch's ({@link #written}).
   */
  boolean stillWaiting(PendingRequest<?> request) {
    Patience.State caller = request.callerState();
    if (caller == Patience.State.WAITING) {
      return true;
    }
    request.fail(expired(Expiry.whileQueued(caller)));
    return false;
  }

  /** A batch taken by {@link #takeBatch} is done, answered or failed: its hits leave the count. */
  void written(List<PendingRequest<?>> batch) {
    int hits = 0;
    for (PendingRequest<?> request : batch) {
      hits += request.hits();
    }
    pendingHits.addAndGet(-hits);
  }

  /** Fails everything queued (the lane closed or cannot connect). */
  void failAll(StoreException failure) {
    for (PendingRequest<?> request = queue.poll(); request != null; request = queue.poll()) {
      if (request.claim()) {
        pendingHits.addAndGet(-request.hits());
        request.fail(failure);
      }
    }
  }

  private StoreExpiredException expired(Expiry stage) {
    return new StoreExpiredException(stage, "before it was sent to redis at " + address);
  }

  private StoreShedException shed(int hits) {
    return new StoreShedException(
        "shed: store queue full: "
            + (pendingHits.get())
            + " hits already waiting for redis at "
            + address
            + " (at most "
            + maxPendingHits
            + ", --redis-max-queued-hits; "
            + hits
            + " more refused)");
  }
}
