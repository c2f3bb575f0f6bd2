package dev.sluice.rlqs;

import dev.sluice.config.FailureMode;
import dev.sluice.metrics.RlqsMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a bucket's plan into one client's assignment: a blanket plan as it is, a divided one by the
 * client's max-min fair share over every client of every instance ({@link QuotaBook}, filled by
 * {@link #exchange} through the {@link DemandBoard}). When the board has not answered for one
 * assignment TTL, the last shares have run out on the Envoys too, and the failure mode decides:
 * {@code allow} and {@code deny} send the blanket rule, {@code error} sends nothing (the Envoy's
 * {@code expired_assignment_behavior} applies), {@code local} divides {@code limit / --instances}
 * among this instance's clients. Thread-safe.
 */
final class Quotas {
  private static final Logger log = LoggerFactory.getLogger(Quotas.class);

  /** A share that moved less than this since the last one sent is sent unchanged (see below). */
  static final double HYSTERESIS = 0.05;

  /** What a divided bucket needs beside the book: the board, the failure policy, the clock. */
  record Settings(FailureMode failureMode, int instances, Duration ttl) {}

  private final QuotaBook book;
  private final DemandBoard board;
  private final Settings settings;
  private final Clock clock;
  private final RlqsMetrics metrics;
  private volatile long lastExchangeMillis;
  private volatile boolean failing;

  Quotas(QuotaBook book, DemandBoard board, Settings settings, Clock clock, RlqsMetrics metrics) {
    this.book = book;
    this.board = board;
    this.settings = settings;
    this.clock = clock;
    this.metrics = metrics;
    this.lastExchangeMillis = clock.millis();
  }

  QuotaBook book() {
    return book;
  }

  /** Publishes this instance's demands and reads the others'; on the scheduler. */
  void exchange() {
    Map<String, Map<String, Double>> local = book.localDemands();
    if (local.isEmpty()) {
      // No client of this instance: nothing to publish, nothing to divide; an instance serving
      // RLS only never touches Redis for RLQS.
      lastExchangeMillis = clock.millis();
      return;
    }
    try {
      Map<String, double[]> others = board.exchange(local, settings.ttl());
      others.forEach(book::others);
      lastExchangeMillis = clock.millis();
      metrics.exchanged(true);
      if (failing) {
        failing = false;
        log.info("rlqs: demand exchange on {} works again", board.kind());
      }
    } catch (RuntimeException e) {
      metrics.exchanged(false);
      if (!failing) {
        failing = true;
        log.warn(
            "rlqs: demand exchange on {} failed ({}); last shares kept for {}",
            board.kind(),
            e.getMessage(),
            settings.ttl());
      }
    }
  }

  /**
   * The assignment of {@code client} for a bucket of {@code plan}, given what was last sent; empty
   * to send nothing. A token bucket within {@link #HYSTERESIS} of the last one sent is that one
   * again: an Envoy given a different strategy starts a new, full bucket, so a share that moves by
   * a percent each report would hand out a bucket's worth each time.
   */
  Optional<Assignment> assign(BucketPlan plan, String client, Optional<Assignment> last) {
    if (plan instanceof BucketPlan.Blanket blanket) {
      return Optional.of(blanket.assignment());
    }
    BucketPlan.Divided divided = (BucketPlan.Divided) plan;
    double limit = divided.limitPerSecond();
    if (clock.millis() - lastExchangeMillis > settings.ttl().toMillis()) {
      switch (settings.failureMode()) {
        case ALLOW:
          return Optional.of(Assignment.ALLOW_ALL);
        case DENY:
          return Optional.of(Assignment.DENY_ALL);
        case ERROR:
          return Optional.empty();
        case LOCAL:
          book.forgetOthers();
          limit = limit / settings.instances();
          break;
      }
    }
    double share = book.share(divided, client, limit);
    if (!(share > 0)) {
      return Optional.of(Assignment.DENY_ALL);
    }
    Assignment.Tokens next = Assignment.Tokens.forShare(share, limit, divided.burst());
    if (last.isPresent()
        && last.get() instanceof Assignment.Tokens previous
        && Math.abs(previous.share() - share) <= HYSTERESIS * previous.share()) {
      return last;
    }
    return Optional.of(next);
  }

  /** The share last computed for {@code client}, per second, for the assigned-rate metric. */
  double rateOf(Assignment assignment) {
    return assignment instanceof Assignment.Tokens tokens ? tokens.ratePerSecond() : 0;
  }

  void close() {
    board.close();
  }
}
