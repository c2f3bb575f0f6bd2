package dev.sluice.consistency;

import dev.sluice.metrics.ConsistencyMetrics;
import dev.sluice.store.CounterState;
import dev.sluice.store.CounterStore;
import dev.sluice.store.CounterSync;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.threads.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Split consistency: each instance enforces {@code ceil(limit / N)} alone in an in-process store,
 * with no shared-store call on the request path. N is the live instances when a heartbeat is given:
 * every {@link #HEARTBEAT} this instance marks itself live in the shared store for {@link
 * #MARK_TTL} and reads how many marks are live ({@link CounterSync#heartbeat}), so a fleet that
 * grows or shrinks re-splits within a few seconds. While the heartbeat fails, the last count read
 * stays in force; before any answered, and without a heartbeat, N is {@code --instances}.
 *
 * <p>Threads: {@link #acquire} runs on the caller's thread and answers before it returns; the
 * heartbeat runs on the {@link Scheduler} ({@code sluice-scheduler-N}) and waits there up to {@code
 * wait} for its answer.
 */
public final class SplitCounters implements AutoCloseable {
  /** How often an instance marks itself live. */
  public static final Duration HEARTBEAT = Duration.ofSeconds(1);

  /** How long a mark lives: three missed heartbeats, so one slow beat does not re-split. */
  public static final Duration MARK_TTL = HEARTBEAT.multipliedBy(3);

  private final CounterStore local;
  private final Optional<CounterSync> shared;
  private final Scheduler scheduler;
  private final Duration wait;
  private final ConsistencyMetrics metrics;
  private final BooleanSupplier inUse;
  private final String instance = UUID.randomUUID().toString();
  private volatile int instances;
  private Scheduler.Cancellable beating; // guarded by this

  /**
   * @param local the in-process store the shares are counted in; closed by its owner
   * @param shared where live instances are counted; empty: always {@code instances}
   * @param instances N until a heartbeat answers, and always without one
   * @param inUse whether the rules served hold a split limit; without one no heartbeat is sent, so
   *     a fleet that uses no split limit writes no mark into Redis
   */
  public SplitCounters(
      CounterStore local,
      Optional<CounterSync> shared,
      int instances,
      Scheduler scheduler,
      Duration wait,
      ConsistencyMetrics metrics,
      BooleanSupplier inUse) {
    if (instances < 1) {
      throw new IllegalArgumentException("instances must be >= 1: " + instances);
    }
    this.local = local;
    this.shared = shared;
    this.instances = instances;
    this.scheduler = scheduler;
    this.wait = wait;
    this.metrics = metrics;
    this.inUse = inUse;
    metrics.splitInstances(instances);
  }

  /**
   * Schedules the heartbeat: at once, then every {@link #HEARTBEAT}. Started with the process, not
   * on the first split hit: an instance that joined late would otherwise be missing from the count
   * of the others for its first split requests (measured: half as many again admitted in a short
   * run).
   */
  public synchronized SplitCounters start() {
    if (shared.isPresent() && beating == null) {
      beating = scheduler.scheduleWithFixedDelay(this::beat, Duration.ZERO, HEARTBEAT);
    }
    return this;
  }

  /** The N limits are divided by now. */
  public int instances() {
    return instances;
  }

  /** Counts each hit against its limit's share; completes before returning. */
  public CompletableFuture<List<Usage>> acquire(List<Hit> hits) {
    return local.acquire(hits.stream().map(this::share).toList());
  }

  /** This instance's counter of {@code hit}, against its share. */
  public CompletableFuture<CounterState> inspect(Hit hit) {
    return local.inspect(share(hit));
  }

  public CompletableFuture<CounterState> reset(Hit hit) {
    return local.reset(share(hit));
  }

  private Hit share(Hit hit) {
    return new Hit(hit.key(), hit.limit().share(instances), hit.hits());
  }

  private void beat() {
    if (!inUse.getAsBoolean()) {
      return;
    }
    try {
      long live =
          shared
              .orElseThrow()
              .heartbeat(instance, MARK_TTL)
              .get(wait.toMillis(), TimeUnit.MILLISECONDS);
      instances = (int) Math.max(1, Math.min(Integer.MAX_VALUE, live));
      metrics.splitInstances(instances);
      metrics.heartbeat(true);
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      metrics.heartbeat(false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the heartbeat (for good); its mark expires on its own within {@link #MARK_TTL}. */
  @Override
  public synchronized void close() {
    if (beating != null) {
      beating.cancel();
      beating = null;
    }
  }
}
