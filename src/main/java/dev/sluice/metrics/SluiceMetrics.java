package dev.sluice.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every metric Sluice exports. Thread-safe; the per-rule series are cached so recording a decision
 * does no label lookup after the first hit of a rule.
 */
public final class SluiceMetrics {
  /** Distinct request values a {@code detailed_metric} rule may show, per rule. */
  public static final int DETAILED_VALUES_PER_RULE = 1_000;

  /** Distinct request values all {@code detailed_metric} rules together may show. */
  public static final int DETAILED_VALUES_TOTAL = 5_000;

  /** Characters of whole request values kept behind cut labels, for {@link #detailedLabel}. */
  static final long DETAILED_KEPT_CHARS = 4L << 20;

  private static final int UNKNOWN_DOMAINS = 100;

  /** The rule label of hits counted against a client's override limit rather than a rule. */
  public static final String OVERRIDE_RULE = "_override";

  private static final double[] LATENCY_BUCKETS = {
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1
  };

  private final PrometheusRegistry registry;
  private final Counter ruleHits;
  private final Counter ruleOver;
  private final Counter ruleNear;
  private final Counter ruleWithin;
  private final Counter ruleShadow;
  private final Counter ruleLocalCache;
  private final Counter domainNotFound;
  private final Histogram requests;
  private final Map<String, DistributionDataPoint> requestsByCode = new ConcurrentHashMap<>();
  private final Counter requestsExpired;
  private final Counter reloads;
  private final Gauge rulesLoaded;
  private final Gauge domainsLoaded;
  private final Counter failurePolicy;
  private final Counter globalShadow;
  private final Counter localCache;
  private final Counter captureLines;
  private final LabelCap unknownDomains = new LabelCap(UNKNOWN_DOMAINS);
  private final Map<String, Map<String, RuleSeries>> ruleSeries = new ConcurrentHashMap<>();
  private final DetailedLabels detailed =
      new DetailedLabels(DETAILED_VALUES_PER_RULE, DETAILED_VALUES_TOTAL, DETAILED_KEPT_CHARS);
  private final ConsistencyMetrics consistency;
  private final StatsMirror mirror;
  private final GrpcTransportMetrics grpcTransport;
  private final RlqsMetrics rlqs;
  private final StoreMetrics store;

  public SluiceMetrics(PrometheusRegistry registry) {
    this(registry, StatsMirror.NONE);
  }

  /**
   * @param mirror told every event recorded here as it is recorded ({@link StatsMirror#NONE} for
   *     none)
   */
  public SluiceMetrics(PrometheusRegistry registry, StatsMirror mirror) {
    this.registry = registry;
    this.mirror = mirror;
    this.consistency = new ConsistencyMetrics(registry);
    this.grpcTransport = new GrpcTransportMetrics(registry);
    this.rlqs = new RlqsMetrics(registry);
    this.store = new StoreMetrics(registry, LATENCY_BUCKETS);
    ruleHits = counter("sluice_rule_hits_total", "Hits counted against a rule.", "domain", "rule");
    ruleOver =
        counter("sluice_rule_over_limit_total", "Hits above a rule's limit.", "domain", "rule");
    ruleNear =
        counter(
            "sluice_rule_near_limit_total",
            "Hits between 80% of a rule's limit and the limit.",
            "domain",
            "rule");
    ruleWithin =
        counter("sluice_rule_within_limit_total", "Hits a rule allowed.", "domain", "rule");
    ruleShadow =
        counter(
            "sluice_rule_shadow_mode_total",
            "Over-limit hits a shadow-mode rule let through.",
            "domain",
            "rule");
    ruleLocalCache =
        counter(
            "sluice_rule_over_limit_local_cache_total",
            "Over-limit hits answered from the local over-limit cache.",
            "domain",
            "rule");
    domainNotFound =
        counter(
            "sluice_domain_not_found_total",
            "Descriptors in a domain no rule file declares (first 100 domains, then _other).",
            "domain");
    requests =
        Histogram.builder()
            .name("sluice_request_duration_seconds")
            .help("ShouldRateLimit calls and their latency, by outcome.")
            .labelNames("code")
            .classicOnly()
            .classicUpperBounds(LATENCY_BUCKETS)
            .withoutExemplars()
            .register(registry);
    requestsExpired =
        counter(
            "sluice_requests_expired_total",
            "Requests dropped uncharged because their caller stopped waiting, by stage: arrival"
                + " (deadline already passed), queued (deadline passed waiting for the store),"
                + " cancelled (the caller went away).",
            "stage");
    reloads = counter("sluice_rules_reloads_total", "Rule reload attempts.", "result");
    rulesLoaded = gauge("sluice_rules_loaded", "Rules with a rate_limit being served.");
    domainsLoaded = gauge("sluice_rules_domains", "Domains being served.");
    failurePolicy =
        counter(
            "sluice_failure_policy_decisions_total",
            "Requests answered by the failure policy because the store failed.",
            "policy");
    globalShadow =
        counter(
            "sluice_global_shadow_mode_total",
            "Requests answered OK only because of --shadow-mode.");
    localCache =
        counter(
            "sluice_local_cache_total",
            "Lookups of the local over-limit cache, by result (hit or miss).",
            "result");
    captureLines =
        counter(
            "sluice_capture_requests_total",
            "Sampled requests of --capture-file, by result: written, dropped (queue full: the"
                + " request was never slowed) or failed (write error).",
            "result");
    JvmMetrics.builder().register(registry);
  }

  private Counter counter(String name, String help, String... labels) {
    // No exemplars: there is no tracing to link to, and sampling them costs on every increment.
    return Counter.builder()
        .name(name)
        .help(help)
        .labelNames(labels)
        .withoutExemplars()
        .register(registry);
  }

  /**
   * The series of {@code label} (a code or a store name: a handful), found in a map keyed by the
   * string itself: {@code labelValues} would build and hash a label list on every request.
   */
  private static DistributionDataPoint seriesOf(
      Map<String, DistributionDataPoint> known, Histogram histogram, String label) {
    DistributionDataPoint series = known.get(label);
    return series != null ? series : known.computeIfAbsent(label, histogram::labelValues);
  }

  private Gauge gauge(String name, String help) {
    return Gauge.builder().name(name).help(help).register(registry);
  }

  /**
   * Records one counted descriptor.
   *
   * @param rule the configured rule's path (e.g. {@code path_/api.method}); bounded
   */
  public void ruleOutcome(String domain, String rule, RuleCounts counts) {
    record(domain, rule, rule, counts);
  }

  private void record(String domain, String label, String rule, RuleCounts counts) {
    Map<String, RuleSeries> ofDomain =
        ruleSeries.computeIfAbsent(domain, d -> new ConcurrentHashMap<>());
    RuleSeries series = ofDomain.get(label);
    if (series == null) {
      // Only on a miss: the capturing lambda is an allocation on every call otherwise.
      series = ofDomain.computeIfAbsent(label, l -> new RuleSeries(domain, l, rule));
    }
    series.record(counts);
    mirror.ruleOutcome(domain, label, counts);
  }

  /**
   * Removes the per-rule series of every rule not in {@code served} (domain to the paths of its
   * counted rules), e.g. after a reload removed them, so /metrics shows only rules being served.
   * The {@code _override} series of a domain still served stays.
   */
  public void retainRules(Map<String, Set<String>> served) {
    ruleSeries.forEach(
        (domain, series) -> {
          Set<String> rules = served.getOrDefault(domain, Set.of());
          series
              .values()
              .removeIf(
                  each -> {
                    boolean gone =
                        !rules.contains(each.rule)
                            && !(served.containsKey(domain) && OVERRIDE_RULE.equals(each.rule));
                    if (gone) {
                      each.remove();
                    }
                    return gone;
                  });
        });
    detailed.retain(served);
  }

  /**
   * Records a descriptor of a {@code detailed_metric} rule under its request-value path: the path
   * itself when at most 128 UTF-8 bytes, else cut to a prefix and a hash; at most {@link
   * #DETAILED_VALUES_PER_RULE} paths per rule and {@link #DETAILED_VALUES_TOTAL} in all, beyond
   * that under {@code <rule>._other}.
   */
  public void detailedRuleOutcome(
      String domain, String rule, String detailedPath, RuleCounts counts) {
    record(domain, detailed.admit(domain, rule, detailedPath), rule, counts);
  }

  /**
   * What the rule label {@code label} of a detailed series in {@code domain} stands for, as {@code
   * /metrics} shows it; empty when no detailed series of the domain has that label.
   */
  public Optional<DetailedLabel> detailedLabel(String domain, String label) {
    return detailed.lookup(domain, label);
  }

  public void domainNotFound(String domain) {
    String admitted = unknownDomains.admit(domain);
    domainNotFound.labelValues(admitted).inc();
    mirror.domainNotFound(admitted);
  }

  /**
   * @param code {@code OK}, {@code OVER_LIMIT}, or the gRPC status of a failed call
   */
  public void request(String code, long nanos) {
    seriesOf(requestsByCode, requests, code).observe(nanos / 1e9);
    mirror.request(code, nanos);
  }

  /**
   * A request dropped, uncharged, because its caller stopped waiting.
   *
   * @param stage {@code arrival}, {@code queued} or {@code cancelled} (the store's {@code Expiry})
   */
  public void requestExpired(String stage) {
    requestsExpired.labelValues(stage).inc();
  }

  public void reloaded(int domains, int rules) {
    reloads.labelValues("success").inc();
    rulesLoaded(domains, rules);
    mirror.configLoad(true);
  }

  public void reloadRejected() {
    reloads.labelValues("failure").inc();
    mirror.configLoad(false);
  }

  /**
   * The rules read from files at startup: a load like a reload for the mirror (the reference
   * service counts it as a config load), but not a reload in {@code sluice_rules_reloads_total}.
   */
  public void initialRulesLoaded(int domains, int rules) {
    rulesLoaded(domains, rules);
    mirror.configLoad(true);
  }

  public void rulesLoaded(int domains, int rules) {
    domainsLoaded.set(domains);
    rulesLoaded.set(rules);
  }

  public void failurePolicyDecision(String policy) {
    failurePolicy.labelValues(policy).inc();
    mirror.failurePolicyDecision();
  }

  public void globalShadowMode() {
    globalShadow.inc();
    mirror.globalShadowMode();
  }

  public void localCacheLookup(boolean hit) {
    localCache.labelValues(hit ? "hit" : "miss").inc();
  }

  /** The stores' calls, sheds, circuit breakers and evictions. */
  public StoreMetrics store() {
    return store;
  }

  /** The synced and split modes' metrics. */
  public ConsistencyMetrics consistency() {
    return consistency;
  }

  /** The gRPC ports' limits: calls refused, connections closed, connections open. */
  public GrpcTransportMetrics grpcTransport() {
    return grpcTransport;
  }

  /** The Rate Limit Quota Service's streams, assignments and rates. */
  public RlqsMetrics rlqs() {
    return rlqs;
  }

  /**
   * @param result {@code written}, {@code dropped} or {@code failed}
   */
  public void captured(String result, long requests) {
    captureLines.labelValues(result).inc(requests);
  }

  /** Writes every metric in the Prometheus text format. */
  public void writeText(OutputStream out) throws IOException {
    PrometheusTextFormatWriter.create().write(out, registry.scrape(), null);
  }

  /** The content type of {@link #writeText}. */
  public static String textContentType() {
    return PrometheusTextFormatWriter.CONTENT_TYPE;
  }

  /** The data points of one rule, looked up once. */
  private final class RuleSeries {
    private final CounterDataPoint hits;
    private final CounterDataPoint over;
    private final CounterDataPoint near;
    private final CounterDataPoint within;
    private final CounterDataPoint shadow;
    private final CounterDataPoint cached;
    private final String domain;
    private final String label;
    private final String rule;

    /**
     * @param label the series' rule label
     * @param rule the configured rule it belongs to (the label itself, or for a detailed series the
     *     rule whose request values it shows)
     */
    RuleSeries(String domain, String label, String rule) {
      this.domain = domain;
      this.label = label;
      this.rule = rule;
      hits = ruleHits.labelValues(domain, label);
      over = ruleOver.labelValues(domain, label);
      near = ruleNear.labelValues(domain, label);
      within = ruleWithin.labelValues(domain, label);
      shadow = ruleShadow.labelValues(domain, label);
      cached = ruleLocalCache.labelValues(domain, label);
    }

    void remove() {
      for (Counter counter :
          List.of(ruleHits, ruleOver, ruleNear, ruleWithin, ruleShadow, ruleLocalCache)) {
        counter.remove(domain, label);
      }
    }

    void record(RuleCounts counts) {
      add(hits, counts.total());
      add(over, counts.over());
      add(near, counts.near());
      add(within, counts.within());
      add(shadow, counts.shadow());
      add(cached, counts.localCache());
    }

    private void add(CounterDataPoint point, long amount) {
      if (amount > 0) {
        point.inc(amount);
      }
    }
  }
}
