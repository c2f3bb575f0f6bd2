package dev.sluice.rlqs;

import dev.sluice.config.RlqsConfig;
import dev.sluice.metrics.RlqsMetrics;
import dev.sluice.rules.RuleSet;
import dev.sluice.threads.Scheduler;
import dev.sluice.tracing.RlqsTurnSpan;
import dev.sluice.tracing.Tracing;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaResponse;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaServiceGrpc;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code envoy.service.rate_limit_quota.v3.RateLimitQuotaService}: one {@link QuotaStream} per
 * Envoy stream, at most {@link RlqsConfig#maxStreams} at once, and the server's turn every report
 * interval on the scheduler ({@link #start}): exchange demands with the other instances, then let
 * every stream push what changed. Handlers never block (reports touch memory only), so they run on
 * the RLS port's event loops like ShouldRateLimit. Thread-safe.
 */
public final class RlqsService extends RateLimitQuotaServiceGrpc.RateLimitQuotaServiceImplBase
    implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RlqsService.class);
  private static final Comparator<ReportTally.RuleKey> RULE_ORDER =
      Comparator.comparing(ReportTally.RuleKey::domain).thenComparing(ReportTally.RuleKey::rule);

  private final QuotaStream.Context context;
  private final Tracing tracing;
  private final Set<QuotaStream> streams = ConcurrentHashMap.newKeySet();
  private final AtomicLong opened = new AtomicLong();
  private final AtomicLong reserved = new AtomicLong();

  /** Assigned and limit rates per domain and rule path, as the last turn summed them. */
  private volatile Map<Map.Entry<String, String>, double[]> lastRates = Map.of();

  RlqsService(
      RlqsConfig config, Supplier<RuleSet> rules, Quotas quotas, Clock clock, RlqsMetrics metrics) {
    this(
        new QuotaStream.Context(config, rules, quotas, clock, metrics, new ReportTally()),
        Tracing.off());
  }

  RlqsService(QuotaStream.Context context, Tracing tracing) {
    this.context = context;
    this.tracing = tracing;
  }

  /**
   * The service for {@code sluice serve}: demands shared through {@code store}'s Redis when it is a
   * standalone Redis, else divided among this instance's clients (logged).
   */
  public static RlqsService create(Settings settings, Supplier<RuleSet> rules, Clock clock) {
    DemandBoard board = board(settings);
    Quotas quotas =
        new Quotas(
            new QuotaBook(),
            board,
            new Quotas.Settings(
                settings.limiter().failureMode(),
                settings.limiter().instances(),
                settings.rlqs().assignmentTtl()),
            clock,
            settings.metrics());
    return new RlqsService(
        new QuotaStream.Context(
            settings.rlqs(), rules, quotas, clock, settings.metrics(), new ReportTally()),
        settings.tracing());
  }

  /**
   * What {@link #create} reads: the service's, the store's and the limiter's settings, and where
   * each server turn's span goes.
   */
  public record Settings(
      RlqsConfig rlqs,
      dev.sluice.config.StoreConfig store,
      dev.sluice.config.LimiterConfig limiter,
      RlqsMetrics metrics,
      Tracing tracing) {}

  private static DemandBoard board(Settings settings) {
    if (settings.store().kind() != dev.sluice.config.StoreKind.REDIS) {
      log.info("rlqs: memory store, each instance divides the limits among its own clients");
      return DemandBoard.ALONE;
    }
    return RedisDemandBoard.open(settings.store().redis())
        .<DemandBoard>map(board -> board)
        .orElseGet(
            () -> {
              log.warn(
                  "rlqs: demands are shared only through a standalone Redis URL, not {}; each"
                      + " instance divides the limits among its own clients",
                  settings.store().redis().endpoint().address());
              return DemandBoard.ALONE;
            });
  }

  public ServerServiceDefinition definition() {
    return bindService();
  }

  @Override
  public StreamObserver<RateLimitQuotaUsageReports> streamRateLimitQuotas(
      StreamObserver<RateLimitQuotaResponse> responses) {
    ServerCallStreamObserver<RateLimitQuotaResponse> out =
        (ServerCallStreamObserver<RateLimitQuotaResponse>) responses;
    if (reserved.incrementAndGet() > context.config().maxStreams()) {
      reserved.decrementAndGet();
      context.metrics().refused("max_streams");
      out.onError(
          Status.RESOURCE_EXHAUSTED
              .withDescription(
                  "this instance holds "
                      + context.config().maxStreams()
                      + " RLQS streams, the most --rlqs-max-streams allows")
              .asRuntimeException());
      return new Ignored();
    }
    QuotaStream stream = new QuotaStream("c" + opened.incrementAndGet(), out, context, this::ended);
    streams.add(stream);
    context.metrics().streams(streams.size());
    return stream;
  }

  private void ended(QuotaStream stream) {
    if (streams.remove(stream)) {
      reserved.decrementAndGet();
      context.metrics().streams(streams.size());
    }
  }

  /** Starts the server's turn every report interval on {@code scheduler}. */
  public Scheduler.Cancellable start(Scheduler scheduler) {
    return scheduler.scheduleWithFixedDelay(
        this::turn, context.config().reportInterval(), context.config().reportInterval());
  }

  /**
   * One turn: share demands, push what changed to every stream, update the gauges; one span (when
   * tracing is on) for the whole turn.
   */
  void turn() {
    RlqsTurnSpan span = tracing.startRlqsTurn();
    try {
      span.ended(exchangeAndPush());
    } catch (RuntimeException e) {
      span.failed(e);
      throw e;
    }
  }

  private RlqsTurnSpan.Turn exchangeAndPush() {
    context.quotas().exchange();
    long now = context.clock().millis();
    Map<Map.Entry<String, String>, double[]> rates = new HashMap<>();
    Set<String> domains = new TreeSet<>();
    long buckets = 0;
    long sent = 0;
    int open = 0;
    for (QuotaStream stream : streams) {
      sent += stream.refresh(now);
      stream.addRates(rates);
      buckets += stream.bucketCount();
      stream.domain().ifPresent(domains::add);
      open++;
    }
    context.metrics().buckets(buckets);
    context.metrics().rates(rates);
    lastRates = Map.copyOf(rates);
    return new RlqsTurnSpan.Turn(List.copyOf(domains), open, buckets, sent);
  }

  /**
   * What the live page shows: streams and buckets as they are now, each rule's assigned rate as of
   * the last turn and its reported totals. Takes each stream's monitor in turn, briefly; meant for
   * a page polled about once a second, not for the request path.
   */
  public RlqsSnapshot snapshot() {
    Map<ReportTally.RuleKey, long[]> buckets = new HashMap<>();
    int open = 0;
    for (QuotaStream stream : streams) {
      stream.addBuckets(buckets);
      open++;
    }
    Map<ReportTally.RuleKey, long[]> reported = context.tally().totals();
    Map<Map.Entry<String, String>, double[]> rates = lastRates;
    Set<ReportTally.RuleKey> keys = new TreeSet<>(RULE_ORDER);
    keys.addAll(buckets.keySet());
    keys.addAll(reported.keySet());
    rates.keySet().forEach(k -> keys.add(new ReportTally.RuleKey(k.getKey(), k.getValue())));
    List<RlqsSnapshot.RuleRow> rows = new ArrayList<>(keys.size());
    long total = 0;
    for (ReportTally.RuleKey key : keys) {
      long subscribed = buckets.getOrDefault(key, new long[1])[0];
      double[] rate = rates.getOrDefault(Map.entry(key.domain(), key.rule()), new double[2]);
      long[] counts = reported.getOrDefault(key, new long[2]);
      rows.add(
          new RlqsSnapshot.RuleRow(
              key.domain(), key.rule(), subscribed, rate[0], rate[1], counts[0], counts[1]));
      total += subscribed;
    }
    return new RlqsSnapshot(open, total, rows);
  }

  /** Streams open now. */
  int streamCount() {
    return streams.size();
  }

  @Override
  public void close() {
    context.quotas().close();
  }

  /** The request side of a refused stream: whatever the client still sends is dropped. */
  private static final class Ignored implements StreamObserver<RateLimitQuotaUsageReports> {
    @Override
    public void onNext(RateLimitQuotaUsageReports value) {}

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onCompleted() {}
  }
}
