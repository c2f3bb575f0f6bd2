package dev.sluice.config;

import java.util.Objects;

/**
 * Everything {@code sluice serve} needs: the one settings tree, validated when built (each record
 * checks itself in its compact constructor), never re-read. Each component receives only its own
 * sub-record. Its {@code toString} is safe to log: secrets print as {@code ***}.
 *
 * @param ruleSource files (from {@code rules}) or xDS
 * @param tracing {@link TracingConfig#OFF} unless tracing is wanted
 * @param requestLimits the largest request accepted
 * @param capture {@link CaptureConfig#OFF} unless requests are captured
 * @param consistency the synced and split consistency modes' settings
 * @param referenceMetrics {@link ReferenceMetricsConfig#OFF} unless the reference's Prometheus
 *     endpoint is wanted
 * @param rlqs Envoy's Rate Limit Quota Service on the RLS port
 */
public record ServeConfig(
    RulesConfig rules,
    StoreConfig store,
    ServerConfig server,
    LimiterConfig limiter,
    HeaderConfig headers,
    RuleSource ruleSource,
    TracingConfig tracing,
    RequestLimits requestLimits,
    CaptureConfig capture,
    ConsistencyConfig consistency,
    ReferenceMetricsConfig referenceMetrics,
    RlqsConfig rlqs) {
  public ServeConfig {
    Objects.requireNonNull(rules, "rules");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(limiter, "limiter");
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(ruleSource, "ruleSource");
    Objects.requireNonNull(tracing, "tracing");
    Objects.requireNonNull(requestLimits, "requestLimits");
    Objects.requireNonNull(capture, "capture");
    Objects.requireNonNull(consistency, "consistency");
    Objects.requireNonNull(referenceMetrics, "referenceMetrics");
    Objects.requireNonNull(rlqs, "rlqs");
  }

  /** With the default {@link RlqsConfig}. */
  public ServeConfig(
      RulesConfig rules,
      StoreConfig store,
      ServerConfig server,
      LimiterConfig limiter,
      HeaderConfig headers,
      RuleSource ruleSource,
      TracingConfig tracing,
      RequestLimits requestLimits,
      CaptureConfig capture,
      ConsistencyConfig consistency,
      ReferenceMetricsConfig referenceMetrics) {
    this(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        referenceMetrics,
        RlqsConfig.defaults());
  }

  /** Without the reference's Prometheus endpoint. */
  public ServeConfig(
      RulesConfig rules,
      StoreConfig store,
      ServerConfig server,
      LimiterConfig limiter,
      HeaderConfig headers,
      RuleSource ruleSource,
      TracingConfig tracing,
      RequestLimits requestLimits,
      CaptureConfig capture,
      ConsistencyConfig consistency) {
    this(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        ReferenceMetricsConfig.OFF);
  }

  /** With the default {@link ConsistencyConfig}. */
  public ServeConfig(
      RulesConfig rules,
      StoreConfig store,
      ServerConfig server,
      LimiterConfig limiter,
      HeaderConfig headers,
      RuleSource ruleSource,
      TracingConfig tracing,
      RequestLimits requestLimits,
      CaptureConfig capture) {
    this(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        ConsistencyConfig.defaults());
  }

  /** Without capture. */
  public ServeConfig(
      RulesConfig rules,
      StoreConfig store,
      ServerConfig server,
      LimiterConfig limiter,
      HeaderConfig headers,
      RuleSource ruleSource,
      TracingConfig tracing,
      RequestLimits requestLimits) {
    this(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        CaptureConfig.OFF);
  }

  /** With the default {@link RequestLimits}. */
  public ServeConfig(
      RulesConfig rules,
      StoreConfig store,
      ServerConfig server,
      LimiterConfig limiter,
      HeaderConfig headers,
      RuleSource ruleSource,
      TracingConfig tracing) {
    this(rules, store, server, limiter, headers, ruleSource, tracing, RequestLimits.defaults());
  }

  /** Rules from files, no tracing. */
  public ServeConfig(
      RulesConfig rules,
      StoreConfig store,
      ServerConfig server,
      LimiterConfig limiter,
      HeaderConfig headers) {
    this(rules, store, server, limiter, headers, RuleSource.FILES, TracingConfig.OFF);
  }

  public ServeConfig withRules(RulesConfig newRules) {
    return new ServeConfig(
        newRules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withStore(StoreConfig newStore) {
    return new ServeConfig(
        rules,
        newStore,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withServer(ServerConfig newServer) {
    return new ServeConfig(
        rules,
        store,
        newServer,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withLimiter(LimiterConfig newLimiter) {
    return new ServeConfig(
        rules,
        store,
        server,
        newLimiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withHeaders(HeaderConfig newHeaders) {
    return new ServeConfig(
        rules,
        store,
        server,
        limiter,
        newHeaders,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withRuleSource(RuleSource newSource) {
    return new ServeConfig(
        rules,
        store,
        server,
        limiter,
        headers,
        newSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withTracing(TracingConfig newTracing) {
    return new ServeConfig(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        newTracing,
        requestLimits,
        capture,
        consistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withRequestLimits(RequestLimits newLimits) {
    return new ServeConfig(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        newLimits,
        capture,
        consistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withCapture(CaptureConfig newCapture) {
    return new ServeConfig(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        newCapture,
        consistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withConsistency(ConsistencyConfig newConsistency) {
    return new ServeConfig(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        newConsistency,
        referenceMetrics,
        rlqs);
  }

  public ServeConfig withReferenceMetrics(ReferenceMetricsConfig newReferenceMetrics) {
    return new ServeConfig(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        newReferenceMetrics,
        rlqs);
  }

  public ServeConfig withRlqs(RlqsConfig newRlqs) {
    return new ServeConfig(
        rules,
        store,
        server,
        limiter,
        headers,
        ruleSource,
        tracing,
        requestLimits,
        capture,
        consistency,
        referenceMetrics,
        newRlqs);
  }
}
