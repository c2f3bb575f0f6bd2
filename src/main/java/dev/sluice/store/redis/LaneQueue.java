package dev.sluice.store.redis;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link PipelineLane}'s queue: many producers, one consumer that parks when it finds the queue
 * empty. Lock-free: callers never wait for each other or for the writer to add (a {@code
 * LinkedBlockingQueue}'s lock made them do so under load), and an add unparks the consumer only
 * when it is parked or about to be.
 *
 * <p>Thread-safety: {@link #add} from any thread; {@link #take} from the one consumer thread;
 * {@link #peek}, {@link #poll} and {@link #remove} from any thread (the consumer batching, or a
 * thread failing what is queued).
 */
final class LaneQueue<E> {
  private final Queue<E> queue = new ConcurrentLinkedQueue<>();
  private final Thread consumer;
  // Set by the consumer before it looks at an empty queue a last time and parks; an add that then
  // sees it unparks the consumer. Both sides are volatile, so one of them sees the other's write.
  private volatile boolean consumerParked;

  /**
   * @param consumer the one thread that calls {@link #take}
   */
  LaneQueue(Thread consumer) {
    this.consumer = consumer;
  }

  void add(E element) {
    queue.add(element);
    if (consumerParked) {
      LockSupport.unpark(consumer);
    }
  }

  E peek() {
    return queue.peek();
  }

  /** Removes {@code element} (by identity); true for the one thread that removed it. */
  boolean remove(E element) {
    return queue.remove(element);
  }

  /** The oldest element, or null when the queue is empty. */
  E poll() {
    return queue.poll();
  }

  /**
   * The oldest element, parking until there is one. Consumer thread only.
   *
   * @throws InterruptedException when the consumer is interrupted (how a lane's close wakes an idle
   *     writer); an element taken at that moment goes back into the queue, to be failed with the
   *     rest
   */
  E take() throws InterruptedException {
    for (E first = queue.poll(); ; first = queue.poll()) {
      if (first != null) {
        return first;
      }
      consumerParked = true;
      first = queue.poll(); // an add before the flag was set did not unpark: look again
      if (first == null) {
        LockSupport.park(this);
      }
      consumerParked = false;
      if (Thread.interrupted()) {
        if (first != null) {
          queue.add(first);
        }
        throw new InterruptedException();
      }
      if (first != null) {
        return first;
      }
    }
  }
}
