package dev.sluice.rules;

/**
 * The per-descriptor switches of the rule format.
 *
 * @param shadowMode count normally but always answer OK
 * @param quotaMode over limit fails the request only if every quota-mode descriptor is over
 * @param detailedMetric metrics may label this rule's hits by request value (capped)
 * @param valueToMetric metrics show the request value of default/wildcard levels (capped)
 */
public record RuleFlags(
    boolean shadowMode, boolean quotaMode, boolean detailedMetric, boolean valueToMetric) {

  public static final RuleFlags NONE = new RuleFlags(false, false, false, false);
}
