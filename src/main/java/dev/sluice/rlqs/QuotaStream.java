package dev.sluice.rlqs;

import dev.sluice.config.RlqsConfig;
import dev.sluice.metrics.RlqsMetrics;
import dev.sluice.rules.RuleSet;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaResponse;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaResponse.BucketAction;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports;
import io.envoyproxy.envoy.service.rate_limit_quota.v3.RateLimitQuotaUsageReports.BucketQuotaUsage;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One Envoy's stream: its domain (from the first report), the buckets it subscribed, and what each
 * was last sent. Reports arrive on a gRPC thread and {@link #refresh} runs on the scheduler; both
 * hold this object's monitor, which guards {@link #buckets}, {@link #domain} and every write to the
 * response stream (gRPC's observer must not be called concurrently).
 */
final class QuotaStream implements StreamObserver<RateLimitQuotaUsageReports> {

  /**
   * What every stream shares: settings, rules, the division, the clock, metrics, and the reported
   * totals the live page shows.
   */
  record Context(
      RlqsConfig config,
      Supplier<RuleSet> rules,
      Quotas quotas,
      Clock clock,
      RlqsMetrics metrics,
      ReportTally tally) {}

  /** One subscribed bucket. */
  private static final class Bucket {
    final Map<String, String> id;
    RuleSet rules;
    BucketPlan plan;
    Optional<Assignment> sent = Optional.empty();
    long lastReportMillis;

    Bucket(Map<String, String> id) {
      this.id = id;
    }
  }

  private final String client;
  private final ServerCallStreamObserver<RateLimitQuotaResponse> out;
  private final Context context;
  private final Consumer<QuotaStream> onEnd;
  private final Map<Map<String, String>, Bucket> buckets = new HashMap<>();
  private String domain;
  private boolean ended;

  QuotaStream(
      String client,
      ServerCallStreamObserver<RateLimitQuotaResponse> out,
      Context context,
      Consumer<QuotaStream> onEnd) {
    this.client = client;
    this.out = out;
    this.context = context;
    this.onEnd = onEnd;
    out.setOnCancelHandler(() -> end(Optional.empty()));
  }

  @Override
  public synchronized void onNext(RateLimitQuotaUsageReports reports) {
    if (ended) {
      return;
    }
    if (domain == null) {
      Optional<String> problem = RlqsMessages.firstReportProblem(reports);
      if (problem.isPresent()) {
        context.metrics().refused("invalid_report");
        end(Optional.of(Status.INVALID_ARGUMENT.withDescription(problem.get())));
        return;
      }
      domain = reports.getDomain();
    }
    long now = context.clock().millis();
    List<BucketAction> actions = new ArrayList<>();
    for (BucketQuotaUsage usage : reports.getBucketQuotaUsagesList()) {
      if (RlqsMessages.usageProblem(usage).isPresent()) {
        continue; // a later bad usage is skipped; the stream and its other buckets go on
      }
      Map<String, String> id = Map.copyOf(usage.getBucketId().getBucketMap());
      Bucket bucket = buckets.get(id);
      if (bucket == null) {
        if (buckets.size() >= context.config().maxBucketsPerStream()) {
          context.metrics().refused("max_buckets");
          end(
              Optional.of(
                  Status.RESOURCE_EXHAUSTED.withDescription(
                      "this stream holds "
                          + buckets.size()
                          + " buckets, the most --rlqs-max-buckets-per-stream allows")));
          return;
        }
        bucket = subscribe(id, now);
      }
      count(bucket, usage, now);
      Bucket reported = bucket;
      assign(bucket).ifPresent(action -> add(actions, action, reported));
    }
    send(actions);
  }

  private Bucket subscribe(Map<String, String> id, long now) {
    Bucket bucket = new Bucket(id);
    bucket.rules = context.rules().get();
    bucket.plan = BucketPlan.of(BucketMatch.find(bucket.rules, domain, id), now);
    buckets.put(id, bucket);
    return bucket;
  }

  private void count(Bucket bucket, BucketQuotaUsage usage, long now) {
    bucket.lastReportMillis = now;
    long allowed = usage.getNumRequestsAllowed();
    long denied = usage.getNumRequestsDenied();
    String rule = ruleOf(bucket);
    context.metrics().reported(domain, rule, allowed, denied);
    context.tally().add(domain, rule, allowed, denied);
    if (bucket.plan instanceof BucketPlan.Divided divided) {
      context
          .quotas()
          .book()
          .report(
              divided.group(), client, allowed + denied, RlqsMessages.elapsedMillis(usage), now);
    }
  }

  /** The action for {@code bucket} now, recorded as sent; empty when there is none to send. */
  private Optional<BucketAction> assign(Bucket bucket) {
    Optional<Assignment> next = context.quotas().assign(bucket.plan, client, bucket.sent);
    next.ifPresent(assignment -> bucket.sent = Optional.of(assignment));
    return next.map(a -> RlqsMessages.assign(bucket.id, a, context.config().assignmentTtl()));
  }

  /** Adds {@code action} to what is sent, counting it by kind. */
  private void add(List<BucketAction> actions, BucketAction action, Bucket bucket) {
    actions.add(action);
    context.metrics().sent(bucket.sent.map(Assignment::kind).orElse("none"));
  }

  /**
   * The server's own turn, every report interval: buckets not reported for one assignment TTL are
   * abandoned, buckets whose rule is gone after a reload are abandoned, and every bucket whose
   * assignment changed (a reload, or other clients' demand) is sent the new one.
   *
   * @return the bucket actions sent
   */
  synchronized int refresh(long now) {
    if (ended || domain == null) {
      return 0;
    }
    RuleSet rules = context.rules().get();
    List<BucketAction> actions = new ArrayList<>();
    Iterator<Bucket> each = buckets.values().iterator();
    while (each.hasNext()) {
      Bucket bucket = each.next();
      boolean inactive =
          now - bucket.lastReportMillis > context.config().assignmentTtl().toMillis();
      if (bucket.rules != rules) {
        BucketPlan plan = BucketPlan.of(BucketMatch.find(rules, domain, bucket.id), now);
        boolean ruleGone = bucket.plan.rule().isPresent() && plan.rule().isEmpty();
        if (!inactive && !ruleGone) {
          replan(bucket, plan, rules, now);
        } else {
          inactive = true;
        }
      }
      if (inactive) {
        leave(bucket);
        each.remove();
        actions.add(RlqsMessages.abandon(bucket.id));
        context.metrics().sent("abandon");
        continue;
      }
      Optional<Assignment> before = bucket.sent;
      Optional<BucketAction> action = assign(bucket);
      if (action.isPresent() && !bucket.sent.equals(before)) {
        add(actions, action.get(), bucket);
      }
    }
    send(actions);
    return actions.size();
  }

  private void replan(Bucket bucket, BucketPlan plan, RuleSet rules, long now) {
    if (!plan.equals(bucket.plan)) {
      leave(bucket);
      if (plan instanceof BucketPlan.Divided divided) {
        // Subscribed with its demand unknown, as a new bucket is: 1 ms measures nothing.
        context.quotas().book().report(divided.group(), client, 0, 1, now);
      }
      bucket.plan = plan;
      bucket.sent = Optional.empty();
    }
    bucket.rules = rules;
  }

  private void leave(Bucket bucket) {
    if (bucket.plan instanceof BucketPlan.Divided divided) {
      context.quotas().book().leave(divided.group(), client);
    }
  }

  /** The share this stream's buckets were last sent, per rule, added into {@code rates}. */
  synchronized void addRates(Map<Map.Entry<String, String>, double[]> rates) {
    for (Bucket bucket : buckets.values()) {
      if (bucket.plan instanceof BucketPlan.Divided divided) {
        double[] pair =
            rates.computeIfAbsent(
                Map.entry(domain, divided.ruleReached().path()), k -> new double[2]);
        pair[0] += bucket.sent.map(context.quotas()::rateOf).orElse(0.0);
        pair[1] = divided.limitPerSecond();
      }
    }
  }

  /** The buckets of this stream per rule, added into {@code counts}. */
  synchronized void addBuckets(Map<ReportTally.RuleKey, long[]> counts) {
    for (Bucket bucket : buckets.values()) {
      counts
          .computeIfAbsent(new ReportTally.RuleKey(domain, ruleOf(bucket)), k -> new long[1])[0]++;
    }
  }

  private static String ruleOf(Bucket bucket) {
    return bucket.plan.rule().map(r -> r.path()).orElse(RlqsMetrics.NO_RULE);
  }

  /** The domain of the first report; empty before it. */
  synchronized Optional<String> domain() {
    return Optional.ofNullable(domain);
  }

  synchronized int bucketCount() {
    return buckets.size();
  }

  private void send(List<BucketAction> actions) {
    if (actions.isEmpty() || ended || out.isCancelled()) {
      return;
    }
    out.onNext(RateLimitQuotaResponse.newBuilder().addAllBucketAction(actions).build());
  }

  @Override
  public void onError(Throwable t) {
    end(Optional.empty());
  }

  @Override
  public void onCompleted() {
    synchronized (this) {
      if (!ended && !out.isCancelled()) {
        out.onCompleted();
      }
    }
    end(Optional.empty());
  }

  /** Ends the stream once: leaves every group, and closes the call with {@code status} if given. */
  private synchronized void end(Optional<Status> status) {
    if (ended) {
      return;
    }
    ended = true;
    buckets.values().forEach(this::leave);
    buckets.clear();
    status.ifPresent(
        s -> {
          if (!out.isCancelled()) {
            out.onError(s.asRuntimeException());
          }
        });
    onEnd.accept(this);
  }
}
