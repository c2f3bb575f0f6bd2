package dev.sluice.rules;

import java.util.Objects;
import java.util.Optional;

/**
 * The per-descriptor switches of the rule format.
 *
 * @param shadowMode count normally but always answer OK
 * @param quotaMode over limit fails the request only if every quota-mode descriptor is over
 * @param detailedMetric metrics may label this rule's hits by request value (capped)
 * @param valueToMetric metrics show the request value of default/wildcard levels (capped)
 * @param chargeDenied {@code charge_denied}: whether refused hits are still charged; empty when the
 *     rule does not say, so the service's {@code --charge-denied} decides
 */
public record RuleFlags(
    boolean shadowMode,
    boolean quotaMode,
    boolean detailedMetric,
    boolean valueToMetric,
    Optional<Boolean> chargeDenied) {

  public static final RuleFlags NONE = new RuleFlags(false, false, false, false);

  public RuleFlags {
    Objects.requireNonNull(chargeDenied, "chargeDenied");
  }

  /** Flags that leave {@code charge_denied} to the service setting. */
  public RuleFlags(
      boolean shadowMode, boolean quotaMode, boolean detailedMetric, boolean valueToMetric) {
    this(shadowMode, quotaMode, detailedMetric, valueToMetric, Optional.empty());
  }

  /** Whether refused hits are charged, {@code serviceDefault} unless the rule says. */
  public boolean chargesDenied(boolean serviceDefault) {
    return chargeDenied.orElse(serviceDefault);
  }
}
