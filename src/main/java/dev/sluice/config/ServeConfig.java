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
 * @param settings the declared settings' values this tree was built from; a setting that needs no
 *     record of its own (a switch read in one place) is read here
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
    SettingValues settings) {
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
    Objects.requireNonNull(settings, "settings");
  }

  /** A builder with no rules, store or server yet, and every other part at its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this tree, to change some of its parts. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.rules = rules;
    builder.store = store;
    builder.server = server;
    builder.limiter = limiter;
    builder.headers = headers;
    builder.ruleSource = ruleSource;
    builder.tracing = tracing;
    builder.requestLimits = requestLimits;
    builder.capture = capture;
    builder.consistency = consistency;
    builder.referenceMetrics = referenceMetrics;
    builder.settings = settings;
    return builder;
  }

  /**
   * Collects the parts of a {@link ServeConfig}; {@link #build} validates them. Not thread-safe.
   * Parts not set are their defaults: limiter {@link LimiterConfig#defaults()}, headers off, rules
   * from files, no tracing, default request limits, no capture, default consistency, no reference
   * metrics, every declared setting at its default.
   */
  public static final class Builder {
    private RulesConfig rules;
    private StoreConfig store;
    private ServerConfig server;
    private LimiterConfig limiter = LimiterConfig.defaults();
    private HeaderConfig headers = HeaderConfig.off();
    private RuleSource ruleSource = RuleSource.FILES;
    private TracingConfig tracing = TracingConfig.OFF;
    private RequestLimits requestLimits = RequestLimits.defaults();
    private CaptureConfig capture = CaptureConfig.OFF;
    private ConsistencyConfig consistency = ConsistencyConfig.defaults();
    private ReferenceMetricsConfig referenceMetrics = ReferenceMetricsConfig.OFF;
    private SettingValues settings = SettingValues.defaults();

    private Builder() {}

    public Builder rules(RulesConfig value) {
      this.rules = value;
      return this;
    }

    public Builder store(StoreConfig value) {
      this.store = value;
      return this;
    }

    public Builder server(ServerConfig value) {
      this.server = value;
      return this;
    }

    public Builder limiter(LimiterConfig value) {
      this.limiter = value;
      return this;
    }

    public Builder headers(HeaderConfig value) {
      this.headers = value;
      return this;
    }

    public Builder ruleSource(RuleSource value) {
      this.ruleSource = value;
      return this;
    }

    public Builder tracing(TracingConfig value) {
      this.tracing = value;
      return this;
    }

    public Builder requestLimits(RequestLimits value) {
      this.requestLimits = value;
      return this;
    }

    public Builder capture(CaptureConfig value) {
      this.capture = value;
      return this;
    }

    public Builder consistency(ConsistencyConfig value) {
      this.consistency = value;
      return this;
    }

    public Builder referenceMetrics(ReferenceMetricsConfig value) {
      this.referenceMetrics = value;
      return this;
    }

    public Builder settings(SettingValues value) {
      this.settings = value;
      return this;
    }

    public ServeConfig build() {
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
          settings);
    }
  }

  /**
   * The whole tree from the declared settings; {@code values} are kept in it.
   *
   * @throws IllegalArgumentException naming a bad value or combination
   */
  public static ServeConfig from(SettingValues values) {
    return new ServeConfig(
        RulesConfig.from(values),
        StoreConfig.from(values),
        ServerConfig.from(values),
        LimiterConfig.from(values),
        HeaderConfig.from(values),
        XdsConfig.sourceFrom(values),
        TracingConfig.from(values),
        RequestLimits.from(values),
        CaptureConfig.from(values),
        ConsistencyConfig.from(values),
        ReferenceMetricsConfig.from(values),
        values);
  }
}
