package dev.sluice.store.memory;

import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.CounterSync;
import dev.sluice.store.DatedHit;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.CountingAlgorithm;
import dev.sluice.store.algorithm.MemoryCounter;
import dev.sluice.threads.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;

/**
 * Every algorithm in this process, in a {@link CounterTable} of counter values, which a charge
 * updates in place under its key's stripe lock ({@link CountingAlgorithm#chargeInPlace}). A
 * request's whole {@link Charge} is one critical section: it holds the lock stripes of all its keys
 * (ascending, so two requests never deadlock), reads, decides and writes ({@link LockedCharge}).
 * Per-key {@code compute} was enough while each hit stood alone; several limits on one descriptor
 * and {@code charge_denied: false} decide over several keys at once, which needs the stripes, and
 * the stripes alone make a concurrent map's own locking redundant (its nodes cost 40 bytes per
 * counter). What each take does is the hit's {@link CountingAlgorithm}. A counter expires when its
 * algorithm says (end of its window, a bucket full again), on the injected clock: an expired
 * counter reads as absent at once, and a sweep every second (on the injected scheduler, once {@link
 * #start}ed) removes it, so memory is bounded by the counters active in the last second.
 *
 * <p>A plain table rather than an expiring cache library: the request path is one locked read and
 * write, which measured about a third cheaper than Caffeine's (its expiry bookkeeping runs per
 * write).
 *
 * <p>{@link #charge} always answers {@link Charged.Now}, on the caller's thread, and {@link
 * #addDated} and {@link #heartbeat} complete their futures before returning (instances sharing this
 * store in one process are the instances it counts).
 */
public final class InMemoryCounterStore implements CounterStore, CounterSync {
  private static final Duration SWEEP_INTERVAL = Duration.ofSeconds(1);

  private final Clock clock;
  private final Scheduler scheduler;

  /**
   * Every read and write of a counter holds its key's stripe lock: a request holds the stripes of
   * all its keys at once, in ascending order, so its whole charge is one critical section.
   */
  private final CounterTable counters = new CounterTable();

  private final CounterCapacity capacity;
  private final ConcurrentHashMap<String, Long> instanceExpiry = new ConcurrentHashMap<>();
  private Scheduler.Cancellable sweeping; // guarded by this

  /**
   * An empty store; nothing runs until {@link #start}.
   *
   * @param scheduler runs the sweep once {@link #start}ed
   */
  public InMemoryCounterStore(Clock clock, Scheduler scheduler) {
    this(clock, scheduler, CounterCapacity.unbounded());
  }

  /**
   * A store holding at most {@code maxCounters}; past it the soonest-expiring are evicted.
   *
   * @param evicted told the number of live counters each eviction removed
   */
  public InMemoryCounterStore(
      Clock clock, Scheduler scheduler, long maxCounters, LongConsumer evicted) {
    this(clock, scheduler, new CounterCapacity(maxCounters, evicted));
  }

  private InMemoryCounterStore(Clock clock, Scheduler scheduler, CounterCapacity capacity) {
    this.clock = clock;
    this.scheduler = scheduler;
    this.capacity = capacity;
  }

  /** Schedules the sweep of expired counters every second; without it memory is not bounded. */
  public synchronized InMemoryCounterStore start() {
    if (sweeping == null) {
      sweeping = scheduler.scheduleWithFixedDelay(this::sweep, SWEEP_INTERVAL, SWEEP_INTERVAL);
    }
    return this;
  }

  /** Always {@link Charged.Now}: the charge runs on the calling thread, under its stripe locks. */
  @Override
  public Charged charge(Charge charge) {
    // Read once into a long: an Instant passed down the charge escaped and cost 24 bytes a request.
    long nowMicros = CountingAlgorithm.epochMicros(clock.instant());
    Charged.Now usages;
    if (charge.size() == 1 && charge.group(0).hitCount() == 1) {
      // The usual request, one hit: its one stripe, without the sorted stripe array.
      int stripe = stripeOf(charge.group(0).hit(0).key());
      counters.lock(stripe);
      try {
        usages = LockedCharge.apply(charge, liveCounters, nowMicros);
      } finally {
        counters.unlock(stripe);
      }
    } else {
      int[] held = stripesOf(charge);
      lock(held);
      try {
        usages = LockedCharge.apply(charge, liveCounters, nowMicros);
      } finally {
        unlock(held);
      }
    }
    capacity.enforce(counters, CountingAlgorithm.epochMillis(nowMicros));
    return usages;
  }

  /**
   * The table's live values; used only by a thread holding the key's stripe. Stateless (the time
   * comes with each read), so one instance serves every request instead of one per charge.
   */
  private final LockedCharge.Counters liveCounters =
      new LockedCharge.Counters() {
        @Override
        public MemoryCounter get(String key, long nowMicros) {
          return live(counters.get(key), nowMicros);
        }

        @Override
        public void put(String key, MemoryCounter value) {
          counters.put(key, value);
        }
      };

  /**
   * The distinct stripes of every hit's key, ascending: the one lock order, so no deadlock. Read
   * from the groups, not {@link Charge#hits()}, which would collect a list per request.
   */
  private static int[] stripesOf(Charge charge) {
    int[] stripes = new int[charge.hitCount()];
    int distinct = 0;
    for (int g = 0; g < charge.size(); g++) {
      Charge.Group group = charge.group(g);
      for (int i = 0; i < group.hitCount(); i++) {
        distinct = insertSorted(stripes, distinct, stripeOf(group.hit(i).key()));
      }
    }
    return distinct == stripes.length ? stripes : Arrays.copyOf(stripes, distinct);
  }

  /**
   * Inserts {@code stripe} into the sorted prefix {@code stripes[0, distinct)} unless present: a
   * request has a handful of hits.
   *
   * @return the prefix's new length
   */
  private static int insertSorted(int[] stripes, int distinct, int stripe) {
    int at = distinct;
    while (at > 0 && stripes[at - 1] > stripe) {
      at--;
    }
    if (at > 0 && stripes[at - 1] == stripe) {
      return distinct;
    }
    System.arraycopy(stripes, at, stripes, at + 1, distinct - at);
    stripes[at] = stripe;
    return distinct + 1;
  }

  private static int stripeOf(String key) {
    return CounterTable.stripeOf(key);
  }

  private void lock(int[] held) {
    for (int stripe : held) {
      counters.lock(stripe);
    }
  }

  private void unlock(int[] held) {
    for (int i = held.length - 1; i >= 0; i--) {
      counters.unlock(held[i]);
    }
  }

  @Override
  public CompletableFuture<List<Usage>> addDated(List<DatedHit> hits) {
    List<Usage> usages = new ArrayList<>(hits.size());
    long nowMicros = CountingAlgorithm.epochMicros(clock.instant());
    for (DatedHit dated : hits) {
      int[] held = {stripeOf(dated.hit().key())};
      lock(held);
      try {
        usages.add(applyDated(dated.hit(), dated.atMillis() * 1000, nowMicros));
      } finally {
        unlock(held);
      }
    }
    return CompletableFuture.completedFuture(usages);
  }

  /**
   * {@code hit} counted in the window holding {@code at}. A window that has ended keeps no counter
   * here, and never replaces the live counter of a later window (that would lose its count).
   */
  private Usage applyDated(Hit hit, long atMicros, long nowMicros) {
    CountingAlgorithm algorithm = CountingAlgorithm.of(hit.limit().algorithm());
    MemoryCounter current = live(counters.get(hit.key()), nowMicros);
    MemoryCounter.Step step = algorithm.takeInMemory(current, hit, atMicros);
    boolean outlived = current != null && current.expiresAtMillis() > step.next().expiresAtMillis();
    if (!outlived && step.next().expiresAtMillis() > CountingAlgorithm.epochMillis(nowMicros)) {
      counters.put(hit.key(), step.next());
    } else if (current == null) {
      counters.remove(hit.key()); // an expired value, not yet swept
    }
    return step.usage();
  }

  @Override
  public CompletableFuture<Long> heartbeat(String instance, Duration ttl) {
    long now = clock.millis();
    instanceExpiry.put(instance, now + ttl.toMillis());
    instanceExpiry.values().removeIf(expiry -> expiry <= now);
    return CompletableFuture.completedFuture((long) instanceExpiry.size());
  }

  @Override
  public CompletableFuture<CounterState> inspect(Hit hit) {
    long nowMicros = CountingAlgorithm.epochMicros(clock.instant());
    int[] held = {stripeOf(hit.key())};
    lock(held);
    CounterState state;
    try {
      // Read under the lock: a stored counter is updated in place by the requests charging it.
      state = read(hit, live(counters.get(hit.key()), nowMicros), nowMicros);
    } finally {
      unlock(held);
    }
    return CompletableFuture.completedFuture(state);
  }

  @Override
  public CompletableFuture<CounterState> reset(Hit hit) {
    long nowMicros = CountingAlgorithm.epochMicros(clock.instant());
    int[] held = {stripeOf(hit.key())};
    lock(held);
    MemoryCounter removed;
    try {
      removed = live(counters.remove(hit.key()), nowMicros);
    } finally {
      unlock(held);
    }
    return CompletableFuture.completedFuture(read(hit, removed, nowMicros));
  }

  private static CounterState read(Hit hit, MemoryCounter counter, long nowMicros) {
    return CountingAlgorithm.of(hit.limit().algorithm()).readInMemory(counter, hit, nowMicros);
  }

  /** {@code counter}, or null when it is absent or expired at {@code nowMicros}. */
  private static MemoryCounter live(MemoryCounter counter, long nowMicros) {
    return counter != null && counter.expiresAtMillis() > CountingAlgorithm.epochMillis(nowMicros)
        ? counter
        : null;
  }

  /** Removes expired counters; a counter updated meanwhile is kept (conditional removal). */
  private void sweep() {
    long now = clock.millis();
    counters.removeIf(counter -> counter.expiresAtMillis() <= now);
  }

  @Override
  public void ping() {}

  @Override
  public String kind() {
    return "memory";
  }

  /** Counters held, expired ones included until the sweep removes them; for tests and metrics. */
  public long size() {
    return counters.size();
  }

  @Override
  public void close() {
    synchronized (this) {
      if (sweeping != null) {
        sweeping.cancel();
      }
    }
    counters.clear();
  }
}
