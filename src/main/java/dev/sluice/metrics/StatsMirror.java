package dev.sluice.metrics;

/**
 * A second set of metrics told the very events {@link SluiceMetrics} records, at the moment it
 * records them, so its counts equal the {@code sluice_*} counts for the same traffic (the reference
 * service's stat names are one such set). Called on whichever thread records the event (a gRPC
 * thread, a Redis lane, the scheduler), so an implementation must be thread-safe and cheap, and
 * must not block or throw.
 */
public interface StatsMirror {
  /** Mirrors nothing: the mirror of a process that exports only {@code sluice_*}. */
  StatsMirror NONE =
      new StatsMirror() {
        @Override
        public void ruleOutcome(String domain, String rule, RuleCounts counts) {}

        @Override
        public void domainNotFound(String domain) {}

        @Override
        public void request(String code, long nanos) {}

        @Override
        public void configLoad(boolean loaded) {}

        @Override
        public void failurePolicyDecision() {}

        @Override
        public void globalShadowMode() {}
      };

  /**
   * One counted descriptor, under the label its {@code sluice_rule_*} series carries.
   *
   * @param rule the rule label: the configured path, {@code path:unit} for one of several limits, a
   *     capped detailed path, or {@code _override}
   */
  void ruleOutcome(String domain, String rule, RuleCounts counts);

  /**
   * One descriptor of an undeclared domain, as capped for {@code sluice_domain_not_found_total}.
   */
  void domainNotFound(String domain);

  /**
   * One ShouldRateLimit call.
   *
   * @param code {@code OK}, {@code OVER_LIMIT}, or the gRPC status of a failed call
   */
  void request(String code, long nanos);

  /**
   * One attempt to load rules: the rules served at startup, a reload, or an xDS push.
   *
   * @param loaded the rules were accepted
   */
  void configLoad(boolean loaded);

  /** A request the failure mode answered because the store failed. */
  void failurePolicyDecision();

  /** A request answered OK only because of global shadow mode. */
  void globalShadowMode();
}
