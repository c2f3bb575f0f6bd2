package dev.sluice.store;

import dev.sluice.config.BreakerConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.threads.Scheduler;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A circuit breaker and latency metrics around a store. The breaker opens when the store is
 * unhealthy ({@link BreakerConfig}): at once on {@link StoreUnreachableException}, or when the
 * failure rate over a sliding time window, judged once it holds enough calls, reaches the
 * threshold. A few slow replies among many good ones (a busy machine) do not open it; a dead store
 * does, within one call or a window's minimum of calls. Open, calls fail at once with {@link
 * StoreException} (so the failure policy answers) without touching the backend. While open, a probe
 * on the injected {@link Scheduler} pings the backend every {@code probeInterval}; when it answers,
 * the breaker lets the next real call through (half-open) and closes when it succeeds. No restart
 * needed, and no call that got an answer was counted twice: a failed call is never retried. A
 * {@link StoreDataException} (an error reply about one key's data) fails only its request and never
 * counts towards the breaker; nor does a {@link StoreShedException} (the store was busy, not
 * broken), which is counted in {@code sluice_store_shed_total} instead, nor a {@link
 * StoreExpiredException} (a request dropped unsent because its caller had gone), counted in {@code
 * sluice_requests_expired_total}.
 *
 * <p>The window runs on the scheduler's clock ({@link Scheduler#clock()}), so tests drive it with
 * the fake clock. Completions are recorded on whichever thread completes the backend's future (a
 * Redis lane); Resilience4j's window is thread-safe.
 *
 * <p>Resilience4j keeps the state machine; only the probe is ours, because its own half-open state
 * would send live requests to a backend still down.
 */
public final class GuardedStore extends ForwardingStore {
  private static final Logger log = LoggerFactory.getLogger(GuardedStore.class);
  private static final String[] STATES = {"closed", "open", "half_open"};

  private final SluiceMetrics metrics;
  private final CircuitBreaker breaker;
  private final Scheduler scheduler;
  private final Duration probeInterval;
  private volatile String lastError = "";
  private final AtomicReference<CircuitBreaker.State> reported =
      new AtomicReference<>(CircuitBreaker.State.CLOSED);
  private Scheduler.Cancellable probing; // guarded by this

  /**
   * Creates the breaker, closed; nothing runs until {@link #start}.
   *
   * @param scheduler runs the probe, and its clock times the failure-rate window; a probe's ping
   *     blocks one of its threads for up to the backend's timeout
   */
  public GuardedStore(
      CounterStore delegate, BreakerConfig settings, SluiceMetrics metrics, Scheduler scheduler) {
    super(delegate);
    this.metrics = metrics;
    this.scheduler = scheduler;
    this.probeInterval = settings.probeInterval();
    this.breaker = CircuitBreaker.of(delegate().kind(), config(settings, scheduler.clock()));
    // No event consumer on purpose (see noticeState): transitions are read off the state instead.
    metrics.store().breakerState(kind(), "closed", STATES);
  }

  /** Schedules the probe every probe interval; it pings only while the breaker is not closed. */
  public synchronized GuardedStore start() {
    if (probing == null) {
      probing = scheduler.scheduleWithFixedDelay(this::probe, probeInterval, probeInterval);
    }
    return this;
  }

  private static CircuitBreakerConfig config(BreakerConfig settings, Clock clock) {
    return CircuitBreakerConfig.custom()
        .clock(clock)
        // Time-based: a burst of failures inside a second of thousands of good calls is a rate, not
        // "5 in a row" (issue 11.12: five slow replies once turned a slowdown into an outage).
        .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.TIME_BASED)
        .slidingWindowSize((int) settings.window().toSeconds())
        .minimumNumberOfCalls(settings.minimumCalls())
        .failureRateThreshold(settings.failureRatePercent())
        .permittedNumberOfCallsInHalfOpenState(1)
        .automaticTransitionFromOpenToHalfOpenEnabled(false)
        .waitDurationInOpenState(Duration.ofDays(365))
        .recordExceptions(StoreException.class)
        // One key's bad data says nothing about the store's health (issue 11.1).
        .ignoreExceptions(
            StoreDataException.class, StoreShedException.class, StoreExpiredException.class)
        .build();
  }

  /**
   * Checks the backend once, at startup: when it does not answer, the breaker starts open so the
   * first requests are answered by the failure policy at once instead of each waiting for a
   * timeout.
   *
   * @return true when the backend answered
   */
  public boolean checkAtStartup() {
    try {
      delegate().ping();
      return true;
    } catch (StoreException e) {
      lastError = e.getMessage();
      breaker.transitionToOpenState();
      noticeState();
      return false;
    }
  }

  /**
   * The delegate's answer under the breaker, recorded once it is known ({@link Charged#whenDone}):
   * at once for an answer made on the calling thread (the memory store), so that path takes the
   * same permission and leaves the same breaker state and store-call metrics as a later one.
   */
  @Override
  public Charged charge(Charge charge) {
    if (!breaker.tryAcquirePermission()) {
      return Charged.failed(new StoreException(delegate().kind() + " circuit open: " + lastError));
    }
    long start = System.nanoTime();
    Charged answer;
    try {
      answer = delegate().charge(charge);
    } catch (RuntimeException e) {
      completed(start, e);
      return Charged.failed(e);
    }
    if (answer instanceof Charged.Now) {
      completed(start, null); // known already: recorded without a callback to build per call
      return answer;
    }
    return answer.whenDone((usages, failure) -> completed(start, failure));
  }

  private void completed(long start, Throwable failure) {
    long nanos = System.nanoTime() - start;
    if (failure == null) {
      metrics.store().call(kind(), nanos, false);
      breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
      noticeState();
      return;
    }
    Throwable cause =
        failure.getCause() != null && !(failure instanceof StoreException)
            ? failure.getCause()
            : failure;
    if (cause instanceof StoreExpiredException expired) {
      // Dropped before it was written because its caller had gone: the store was not asked.
      metrics.requestExpired(expired.stage().label());
      breaker.releasePermission();
      return;
    }
    if (cause instanceof StoreShedException) {
      // Never reached the store: neither its latency nor its error count, and not the breaker's.
      metrics.store().shed(kind());
      breaker.releasePermission();
      return;
    }
    metrics.store().call(kind(), nanos, true);
    lastError = String.valueOf(cause.getMessage());
    breaker.onError(nanos, TimeUnit.NANOSECONDS, cause);
    if (cause instanceof StoreUnreachableException
        && breaker.getState() == CircuitBreaker.State.CLOSED) {
      breaker.transitionToOpenState();
    }
    noticeState();
  }

  /**
   * Open: a ping that answers half-opens the breaker, so the next real call is the trial. Still
   * half-open one interval later (no traffic came): a second answered ping closes it, so health
   * recovers without waiting for traffic.
   */
  private void probe() {
    CircuitBreaker.State state = breaker.getState();
    if (state != CircuitBreaker.State.OPEN && state != CircuitBreaker.State.HALF_OPEN) {
      return;
    }
    try {
      delegate().ping();
      if (state == CircuitBreaker.State.OPEN) {
        breaker.transitionToHalfOpenState();
      } else if (breaker.getState() == CircuitBreaker.State.HALF_OPEN) {
        breaker.transitionToClosedState();
      }
      noticeState();
    } catch (StoreException e) {
      lastError = e.getMessage();
    } catch (RuntimeException e) {
      log.warn("store probe failed unexpectedly", e);
    }
  }

  /**
   * Reports the state the breaker is in now, if it changed since the last report. Runs after every
   * breaker call that can change the state, on the thread that made it. Resilience4j would publish
   * transitions as events, but once any consumer is registered it builds an event (with {@code
   * ZonedDateTime.now()}) for every successful call too: about 8 % of a Redis lane thread's CPU. A
   * change that is undone before anyone reads it (half-open closed by a concurrent success before
   * the probe's own check) is reported as the state it ended in.
   */
  private void noticeState() {
    CircuitBreaker.State now = breaker.getState();
    CircuitBreaker.State before = reported.get();
    if (now != before && reported.compareAndSet(before, now)) {
      transitioned(now);
    }
  }

  private void transitioned(CircuitBreaker.State to) {
    String state = to.name().toLowerCase(Locale.ROOT);
    metrics.store().breakerTransition(kind(), state);
    metrics.store().breakerState(kind(), state, STATES);
    switch (to) {
      case OPEN -> log.warn("store {} unavailable, circuit open: {}", kind(), lastError);
      case HALF_OPEN ->
          log.info("store {} answers again, circuit half-open: trying one request", kind());
      case CLOSED -> log.info("store {} recovered, circuit closed", kind());
      default -> log.info("store {} circuit {}", kind(), state);
    }
  }

  /** True while the breaker is closed: the backend is answering. */
  public boolean available() {
    return breaker.getState() == CircuitBreaker.State.CLOSED;
  }

  /** {@code closed}, {@code open} or {@code half_open}. */
  public String state() {
    return breaker.getState().name().toLowerCase(Locale.ROOT);
  }

  /** The newest failure message, for health output. */
  public String lastError() {
    return lastError;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (probing != null) {
        probing.cancel();
      }
    }
    super.close();
  }
}
