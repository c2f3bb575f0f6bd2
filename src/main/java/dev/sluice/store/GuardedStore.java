package dev.sluice.store;

import dev.sluice.config.BreakerConfig;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.threads.Scheduler;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A circuit breaker and latency metrics around a store. After {@code failureThreshold} failed calls
 * in a row the breaker opens: calls then fail at once with {@link StoreException} (so the failure
 * policy answers) without touching the backend. While open, a probe on the injected {@link
 * Scheduler} pings the backend every {@code probeInterval}; when it answers, the breaker lets the
 * next real call through (half-open) and closes when it succeeds. No restart needed, and no call
 * that got an answer was counted twice: a failed call is never retried. A {@link
 * StoreDataException} (an error reply about one key's data) fails only its request and never counts
 * towards the breaker.
 *
 * <p>Resilience4j keeps the state machine; only the probe is ours, because its own half-open state
 * would send live requests to a backend still down.
 */
public final class GuardedStore implements CounterStore {
  private static final Logger log = LoggerFactory.getLogger(GuardedStore.class);
  private static final String[] STATES = {"closed", "open", "half_open"};

  private final CounterStore delegate;
  private final SluiceMetrics metrics;
  private final CircuitBreaker breaker;
  private final Scheduler scheduler;
  private final Duration probeInterval;
  private volatile String lastError = "";
  private Scheduler.Cancellable probing; // guarded by this

  /**
   * Creates the breaker, closed; nothing runs until {@link #start}.
   *
   * @param scheduler runs the probe; a probe's ping blocks one of its threads for up to the
   *     backend's timeout
   */
  public GuardedStore(
      CounterStore delegate, BreakerConfig settings, SluiceMetrics metrics, Scheduler scheduler) {
    this.delegate = delegate;
    this.metrics = metrics;
    this.scheduler = scheduler;
    this.probeInterval = settings.probeInterval();
    this.breaker = CircuitBreaker.of(delegate.kind(), config(settings));
    breaker
        .getEventPublisher()
        .onStateTransition(event -> transitioned(event.getStateTransition().getToState()));
    metrics.breakerState(kind(), "closed", STATES);
  }

  /** Schedules the probe every probe interval; it pings only while the breaker is not closed. */
  public synchronized GuardedStore start() {
    if (probing == null) {
      probing = scheduler.scheduleWithFixedDelay(this::probe, probeInterval, probeInterval);
    }
    return this;
  }

  private static CircuitBreakerConfig config(BreakerConfig settings) {
    return CircuitBreakerConfig.custom()
        .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
        .slidingWindowSize(settings.failureThreshold())
        .minimumNumberOfCalls(settings.failureThreshold())
        .failureRateThreshold(100)
        .permittedNumberOfCallsInHalfOpenState(1)
        .automaticTransitionFromOpenToHalfOpenEnabled(false)
        .waitDurationInOpenState(Duration.ofDays(365))
        .recordExceptions(StoreException.class)
        // One key's bad data says nothing about the store's health (issue 11.1).
        .ignoreExceptions(StoreDataException.class)
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
      delegate.ping();
      return true;
    } catch (StoreException e) {
      lastError = e.getMessage();
      breaker.transitionToOpenState();
      return false;
    }
  }

  @Override
  public CompletableFuture<List<Usage>> acquire(List<Hit> hits) {
    if (!breaker.tryAcquirePermission()) {
      return CompletableFuture.failedFuture(
          new StoreException(delegate.kind() + " circuit open: " + lastError));
    }
    long start = System.nanoTime();
    CompletableFuture<List<Usage>> result;
    try {
      result = delegate.acquire(hits);
    } catch (RuntimeException e) {
      result = CompletableFuture.failedFuture(e);
    }
    return result.whenComplete((usages, failure) -> completed(start, failure));
  }

  private void completed(long start, Throwable failure) {
    long nanos = System.nanoTime() - start;
    metrics.storeCall(kind(), nanos, failure != null);
    if (failure == null) {
      breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
      return;
    }
    Throwable cause =
        failure.getCause() != null && !(failure instanceof StoreException)
            ? failure.getCause()
            : failure;
    lastError = String.valueOf(cause.getMessage());
    breaker.onError(nanos, TimeUnit.NANOSECONDS, cause);
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
      delegate.ping();
      if (state == CircuitBreaker.State.OPEN) {
        breaker.transitionToHalfOpenState();
      } else if (breaker.getState() == CircuitBreaker.State.HALF_OPEN) {
        breaker.transitionToClosedState();
      }
    } catch (StoreException e) {
      lastError = e.getMessage();
    } catch (RuntimeException e) {
      log.warn("store probe failed unexpectedly", e);
    }
  }

  private void transitioned(CircuitBreaker.State to) {
    String state = to.name().toLowerCase(Locale.ROOT);
    metrics.breakerTransition(kind(), state);
    metrics.breakerState(kind(), state, STATES);
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

  /** Operator calls go straight to the backend: an operator wants its real answer or error. */
  @Override
  public CompletableFuture<CounterState> inspect(Hit hit) {
    return delegate.inspect(hit);
  }

  @Override
  public CompletableFuture<CounterState> reset(Hit hit) {
    return delegate.reset(hit);
  }

  @Override
  public void ping() {
    delegate.ping();
  }

  @Override
  public String kind() {
    return delegate.kind();
  }

  @Override
  public void close() {
    synchronized (this) {
      if (probing != null) {
        probing.cancel();
      }
    }
    delegate.close();
  }
}
