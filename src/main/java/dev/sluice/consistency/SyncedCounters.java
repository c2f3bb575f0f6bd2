package dev.sluice.consistency;

import dev.sluice.metrics.ConsistencyMetrics;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Window;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterSync;
import dev.sluice.store.DatedHit;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.FixedWindow;
import dev.sluice.threads.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Synced consistency for fixed windows: a request is decided here, with no store call, on {@code
 * known global + local unsynced}; every sync interval one {@link CounterSync#addDated} carries the
 * delta of every counter touched since the last sync (a delta of 0 only reads) and the global count
 * it answers becomes the new known global. Keys and windows are the exact mode's, so exact and
 * synced instances of one rule share their counts.
 *
 * <p>Each window of each counter is its own {@link Slot}: a window that ended between two syncs is
 * pushed dated inside itself ({@link DatedHit}), never into the next window, which starts from a
 * known global of 0. While the store fails, deltas stay here (their slots are bounded by {@code
 * maxCounters}; past it {@link #take} declines and the caller counts exactly) and are pushed when
 * it answers again, unless their window ended meanwhile: those are dropped and counted. A failed
 * push is put back whole, so a push that Redis applied but whose reply was lost (a connection cut
 * mid-reply) is counted twice: counting too much refuses early, never lets too much through.
 *
 * <p>Threads: {@link #take} and {@link #inspect} run on the caller's thread (a gRPC handler); the
 * sync runs on the {@link Scheduler} ({@code sluice-scheduler-N}), one at a time, and waits there
 * up to {@code wait} for the store's answer, which is applied on the thread completing it (a Redis
 * lane). {@link #close} flushes once more on the closing thread. Slots change only inside {@code
 * compute} on a concurrent map, so a take never blocks on a sync.
 */
public final class SyncedCounters implements AutoCloseable {
  private final Clock clock;
  private final CounterSync shared;
  private final Scheduler scheduler;
  private final Settings settings;
  private final ConsistencyMetrics metrics;
  private final ConcurrentHashMap<WindowKey, Slot> slots = new ConcurrentHashMap<>();
  private final Object syncing = new Object(); // held by one sync at a time
  private volatile Optional<String> failing = Optional.empty();
  private Scheduler.Cancellable task; // guarded by this

  /**
   * @param interval how often deltas are pushed
   * @param maxCounters slots held at most; past it {@link #take} declines
   * @param answerWait how long a sync waits for the store's answer before the next may start
   */
  public record Settings(Duration interval, long maxCounters, Duration answerWait) {
    public Settings {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("sync interval must be positive: " + interval);
      }
      if (maxCounters < 1) {
        throw new IllegalArgumentException("sync max counters must be >= 1: " + maxCounters);
      }
    }
  }

  /** Nothing runs until {@link #start}. */
  public SyncedCounters(
      Clock clock,
      CounterSync shared,
      Scheduler scheduler,
      Settings settings,
      ConsistencyMetrics metrics) {
    this.clock = clock;
    this.shared = shared;
    this.scheduler = scheduler;
    this.settings = settings;
    this.metrics = metrics;
  }

  /** Schedules the sync every interval. */
  public synchronized SyncedCounters start() {
    if (task == null) {
      task = scheduler.scheduleWithFixedDelay(this::sync, settings.interval(), settings.interval());
    }
    return this;
  }

  /** One counter's window: where its key and its time meet. */
  private record WindowKey(String counterKey, long index) {}

  /**
   * One window of one counter, immutable; replaced inside {@code compute}.
   *
   * @param known the global count the last sync read back (0 before any)
   * @param pending hits counted here since the last sync took its delta
   * @param sending hits of a push not answered yet
   * @param touched a request counted or checked it since the last sync
   */
  private record Slot(
      Limit limit, long endMillis, long known, long pending, long sending, boolean touched) {
    long count() {
      return known + sending + pending;
    }

    Slot took(long hits) {
      return new Slot(limit, endMillis, known, pending + hits, sending, true);
    }

    Slot sent() {
      return new Slot(limit, endMillis, known, 0, sending + pending, false);
    }

    Slot answered(long global, long delta) {
      return new Slot(limit, endMillis, Math.max(known, global), pending, sending - delta, touched);
    }

    Slot putBack(long delta) {
      return new Slot(limit, endMillis, known, pending + delta, sending - delta, true);
    }
  }

  /**
   * Counts {@code hit} (a fixed window's) locally and reports its usage against the known global
   * count; empty, counting nothing, when {@code maxCounters} slots are held and this is a new one.
   */
  public Optional<Usage> take(Hit hit) {
    long now = clock.millis();
    Window window = hit.limit().window();
    WindowKey key = new WindowKey(hit.key(), window.index(now));
    if (!slots.containsKey(key) && slots.size() >= settings.maxCounters()) {
      metrics.overflowed();
      return Optional.empty();
    }
    long end = window.endMillis(key.index());
    Slot slot =
        slots.compute(
            key,
            (k, old) ->
                (old == null ? new Slot(hit.limit(), end, 0, 0, 0, false) : old).took(hit.hits()));
    return Optional.of(usage(hit.limit(), slot.count(), now));
  }

  /**
   * This instance's view of {@code hit}'s counter in the current window, changing nothing: the
   * store key, whether a slot is held, and the usage on {@code known + unsynced}.
   */
  public Optional<View> inspect(Hit hit) {
    long now = clock.millis();
    long index = hit.limit().window().index(now);
    Slot slot = slots.get(new WindowKey(hit.key(), index));
    if (slot == null) {
      return Optional.empty();
    }
    String key = hit.key() + "|" + index;
    CounterState state = new CounterState(key, true, usage(hit.limit(), slot.count(), now));
    return Optional.of(new View(state, slot.known(), slot.pending() + slot.sending()));
  }

  /**
   * A synced counter as this instance sees it.
   *
   * @param knownGlobal the global count the last sync read back
   * @param unsynced hits counted here and not yet answered by a sync
   */
  public record View(CounterState local, long knownGlobal, long unsynced) {}

  private static Usage usage(Limit limit, long count, long now) {
    return FixedWindow.usage(
        count, limit.requestsPerUnit(), Duration.ofMillis(limit.window().untilEndMillis(now)));
  }

  /** Why the last sync failed; empty while syncs succeed. */
  public Optional<String> failing() {
    return failing;
  }

  /** One push of every touched counter, waiting up to the settings' wait for the answer. */
  void sync() {
    synchronized (syncing) {
      List<Push> pushes = collect(clock.millis());
      if (pushes.isEmpty()) {
        report();
        return;
      }
      CompletableFuture<Void> applied = push(pushes);
      try {
        applied.get(settings.answerWait().toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // Applied or put back by the push's own completion; nothing more to do here.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** What one slot sends: its delta, dated inside its window. */
  private record Push(WindowKey key, Hit hit, long atMillis, boolean ended) {}

  /** Takes the delta of every touched slot; forgets ended slots with nothing left to push. */
  private List<Push> collect(long now) {
    List<Push> pushes = new ArrayList<>();
    for (Map.Entry<WindowKey, Slot> entry : slots.entrySet()) {
      WindowKey key = entry.getKey();
      boolean ended = entry.getValue().endMillis() <= now;
      Slot[] before = new Slot[1];
      slots.computeIfPresent(
          key,
          (k, old) -> {
            before[0] = old;
            if (ended && old.pending() == 0 && old.sending() == 0) {
              return null;
            }
            return old.touched() || old.pending() > 0 ? old.sent() : old;
          });
      Slot old = before[0];
      if (old != null && (old.touched() || old.pending() > 0)) {
        long at = ended ? old.endMillis() - 1 : now;
        pushes.add(new Push(key, new Hit(key.counterKey(), old.limit(), old.pending()), at, ended));
      }
    }
    return pushes;
  }

  private CompletableFuture<Void> push(List<Push> pushes) {
    List<DatedHit> dated = pushes.stream().map(p -> new DatedHit(p.hit(), p.atMillis())).toList();
    CompletableFuture<List<Usage>> answer;
    try {
      answer = shared.addDated(dated);
    } catch (RuntimeException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    return answer.handle(
        (usages, failure) -> {
          if (failure == null) {
            answered(pushes, usages);
          } else {
            putBack(pushes, failure);
          }
          report();
          return null;
        });
  }

  private void answered(List<Push> pushes, List<Usage> usages) {
    failing = Optional.empty();
    metrics.synced(true);
    for (int i = 0; i < pushes.size(); i++) {
      Push push = pushes.get(i);
      long global = usages.get(i).countAfter();
      slots.computeIfPresent(
          push.key(),
          (k, old) -> {
            Slot next = old.answered(global, push.hit().hits());
            return push.ended() && next.pending() == 0 && next.sending() == 0 ? null : next;
          });
    }
  }

  /** A failed push goes back into pending; an ended window's is dropped (nobody reads it now). */
  private void putBack(List<Push> pushes, Throwable failure) {
    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
    failing = Optional.of(String.valueOf(cause.getMessage()));
    metrics.synced(false);
    long dropped = 0;
    for (Push push : pushes) {
      long delta = push.hit().hits();
      if (push.ended()) {
        Slot gone = slots.remove(push.key());
        dropped += gone == null ? 0 : gone.pending() + gone.sending();
      } else {
        slots.computeIfPresent(push.key(), (k, old) -> old.putBack(delta));
      }
    }
    if (dropped > 0) {
      metrics.dropped("window_ended", dropped);
    }
  }

  private void report() {
    long unsynced = 0;
    long known = 0;
    for (Slot slot : slots.values()) {
      unsynced += slot.pending() + slot.sending();
      known += slot.known();
    }
    metrics.held(slots.size(), unsynced, known);
  }

  /** Hits counted here and not yet answered by a sync, over every slot; for tests and health. */
  public long unsynced() {
    return slots.values().stream().mapToLong(s -> s.pending() + s.sending()).sum();
  }

  /** Stops the schedule and pushes what is pending once more, waiting up to the wait. */
  @Override
  public void close() {
    synchronized (this) {
      if (task != null) {
        task.cancel();
      }
    }
    sync();
    long left = unsynced();
    if (left > 0) {
      metrics.dropped("shutdown", left);
    }
  }
}
