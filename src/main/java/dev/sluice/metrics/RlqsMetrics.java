package dev.sluice.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The Rate Limit Quota Service's metrics. Labels are fixed words and the configured rule's domain
 * and path (as {@code sluice_rule_*}; {@code _none} for buckets no rule limits), never bucket
 * values. Thread-safe.
 */
public final class RlqsMetrics {
  /** The rule label of a bucket that reached no rule. */
  public static final String NO_RULE = "_none";

  private final Gauge streams;
  private final Gauge buckets;
  private final Counter assignments;
  private final Counter refused;
  private final Counter reported;
  private final Gauge assignedRate;
  private final Gauge limitRate;
  private final Counter exchanges;
  private final Set<Map.Entry<String, String>> rated = new HashSet<>();

  RlqsMetrics(PrometheusRegistry registry) {
    streams =
        Gauge.builder()
            .name("sluice_rlqs_streams")
            .help("RLQS streams open on this instance.")
            .register(registry);
    buckets =
        Gauge.builder()
            .name("sluice_rlqs_buckets")
            .help("Buckets subscribed on this instance's RLQS streams.")
            .register(registry);
    assignments =
        Counter.builder()
            .name("sluice_rlqs_assignments_total")
            .help("Bucket actions sent, by kind: token_bucket, allow_all, deny_all or abandon.")
            .labelNames("kind")
            .register(registry);
    refused =
        Counter.builder()
            .name("sluice_rlqs_refused_total")
            .help(
                "RLQS streams ended by the server, by reason: max_streams, max_buckets or"
                    + " invalid_report.")
            .labelNames("reason")
            .register(registry);
    reported =
        Counter.builder()
            .name("sluice_rlqs_reported_requests_total")
            .help("Requests the Envoys reported, by rule and outcome (allowed or denied).")
            .labelNames("domain", "rule", "outcome")
            .register(registry);
    assignedRate =
        Gauge.builder()
            .name("sluice_rlqs_assigned_rate")
            .help("Sum of the rates this instance assigned per rule, requests per second.")
            .labelNames("domain", "rule")
            .register(registry);
    limitRate =
        Gauge.builder()
            .name("sluice_rlqs_limit_rate")
            .help("The rate divided per rule (its limit), requests per second.")
            .labelNames("domain", "rule")
            .register(registry);
    exchanges =
        Counter.builder()
            .name("sluice_rlqs_demand_exchanges_total")
            .help("Demand exchanges with the other instances (Redis), by outcome (ok or failed).")
            .labelNames("outcome")
            .register(registry);
  }

  public void streams(long open) {
    streams.set(open);
  }

  public void buckets(long subscribed) {
    buckets.set(subscribed);
  }

  public void sent(String kind) {
    assignments.labelValues(kind).inc();
  }

  public void refused(String reason) {
    refused.labelValues(reason).inc();
  }

  public void reported(String domain, String rule, long allowed, long denied) {
    if (allowed > 0) {
      reported.labelValues(domain, rule, "allowed").inc(allowed);
    }
    if (denied > 0) {
      reported.labelValues(domain, rule, "denied").inc(denied);
    }
  }

  /**
   * Sets the assigned and limit rates of every divided rule, per second, removing the series of
   * rules no longer divided. Keys are domain to rule path.
   */
  public synchronized void rates(Map<Map.Entry<String, String>, double[]> assignedAndLimit) {
    for (Map.Entry<String, String> gone : Set.copyOf(rated)) {
      if (!assignedAndLimit.containsKey(gone)) {
        assignedRate.remove(gone.getKey(), gone.getValue());
        limitRate.remove(gone.getKey(), gone.getValue());
        rated.remove(gone);
      }
    }
    assignedAndLimit.forEach(
        (rule, rates) -> {
          assignedRate.labelValues(rule.getKey(), rule.getValue()).set(rates[0]);
          limitRate.labelValues(rule.getKey(), rule.getValue()).set(rates[1]);
          rated.add(rule);
        });
  }

  public void exchanged(boolean ok) {
    exchanges.labelValues(ok ? "ok" : "failed").inc();
  }
}
