package dev.sluice.store.redis;

import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import dev.sluice.testing.Eventually;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Load for topology-change tests: threads that send the given requests round-robin through one
 * store until stopped, counting per counter key what was admitted, answered and failed, and every
 * call that got no answer within the deadline. A failure counts for every key of its request;
 * failures are split by the phase a call was sent in ({@link #settled} marks the topology change as
 * over). Thread-safe.
 */
final class ClusterLoad implements AutoCloseable {
  /** One counter key's tally. Indexes into {@link #counts}. */
  static final int ALLOWED = 0;

  static final int ANSWERED = 1;
  static final int FAILED_DURING = 2;
  static final int FAILED_AFTER = 3;

  private final RedisCounterStore store;
  private final List<List<Hit>> requests;
  private final Duration answerWithin;
  private final Map<String, AtomicLongArray> counts = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  private final AtomicLong unanswered = new AtomicLong();
  private final AtomicLong unexpected = new AtomicLong();
  private final AtomicLong maxNanos = new AtomicLong();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicBoolean after = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();

  ClusterLoad(RedisCounterStore store, List<List<Hit>> requests, Duration answerWithin) {
    this.store = store;
    this.requests = List.copyOf(requests);
    this.answerWithin = answerWithin;
    for (List<Hit> request : requests) {
      request.forEach(hit -> counts.putIfAbsent(hit.key(), new AtomicLongArray(4)));
    }
  }

  /** Starts {@code n} sender threads. */
  ClusterLoad start(int n) {
    for (int t = 0; t < n; t++) {
      int first = t;
      Thread sender = new Thread(() -> send(first), "cluster-load-" + t);
      threads.add(sender);
      sender.start();
    }
    return this;
  }

  private void send(int first) {
    for (int i = first; running.get(); i++) {
      List<Hit> request = requests.get(i % requests.size());
      // The phase a call belongs to is when it was sent: one sent before the change was over
      // may still fail after settled() on the node that went away.
      boolean sentAfter = after.get();
      long start = System.nanoTime();
      try {
        List<Usage> usages =
            store.acquire(request).get(answerWithin.toMillis(), TimeUnit.MILLISECONDS);
        for (int h = 0; h < request.size(); h++) {
          AtomicLongArray tally = counts.get(request.get(h).key());
          tally.incrementAndGet(ANSWERED);
          if (!usages.get(h).overLimit()) {
            tally.incrementAndGet(ALLOWED);
          }
        }
      } catch (TimeoutException e) {
        unanswered.incrementAndGet();
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof StoreException)) {
          unexpected.incrementAndGet();
        }
        request.forEach(
            hit -> counts.get(hit.key()).incrementAndGet(sentAfter ? FAILED_AFTER : FAILED_DURING));
        if (failures.size() < 20 || (sentAfter && failures.size() < 40)) {
          failures.add((sentAfter ? "after: " : "during: ") + e.getCause().getMessage());
        }
      } catch (InterruptedException e) {
        return;
      }
      maxNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
    }
  }

  /** Between two steps of a topology change: lets traffic meet the half-done state. */
  static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Waits until every key has been answered once, so a topology change that follows meets keys that
   * exist (a fixed sleep waited too long on a quiet machine and maybe too little on a busy one).
   */
  void awaitEveryKeyAnswered() {
    Eventually.await(
        Duration.ofSeconds(10),
        "every key answered once",
        () -> counts.values().stream().allMatch(tally -> tally.get(ANSWERED) > 0));
  }

  /** From now on failures count as after the change. */
  void settled() {
    after.set(true);
  }

  /** Lets the senders run on for {@code more}, then stops and joins them. */
  void stopAfter(Duration more) throws InterruptedException {
    Thread.sleep(more.toMillis());
    close();
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    for (Thread sender : threads) {
      sender.join();
    }
  }

  long count(String key, int what) {
    return counts.get(key).get(what);
  }

  long total(int what) {
    return counts.values().stream().mapToLong(tally -> tally.get(what)).sum();
  }

  long unanswered() {
    return unanswered.get();
  }

  long unexpected() {
    return unexpected.get();
  }

  Duration slowest() {
    return Duration.ofNanos(maxNanos.get());
  }

  /** Up to 20 failure messages, for assertion messages. */
  List<String> failures() {
    return List.copyOf(failures);
  }
}
