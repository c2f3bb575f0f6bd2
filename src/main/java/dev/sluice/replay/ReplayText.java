package dev.sluice.replay;

import dev.sluice.metrics.SpaceSaving;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/** {@code sluice replay}'s output: one report, or two side by side. */
public final class ReplayText {
  private ReplayText() {}

  public static String render(ReplayReport report) {
    StringBuilder out = new StringBuilder();
    summary(out, "", report);
    out.append(
        String.format(
            "%n%-40s %9s %9s %9s %9s %8s  %s%n",
            "rule", "requests", "allowed", "refused", "shadow", "peak/s", "limit"));
    for (ReplayReport.RuleReport rule : report.rules()) {
      out.append(
          String.format(
              "%-40s %9d %9d %9d %9d %8d  %s%n",
              rule.rule(),
              rule.requests(),
              rule.allowed(),
              rule.refused(),
              rule.shadowRefused(),
              rule.peakPerSecond(),
              rule.limit()));
      if (!rule.topLimited().isEmpty()) {
        out.append("  top limited: ").append(keys(rule)).append('\n');
      }
    }
    return out.toString();
  }

  private static void summary(StringBuilder out, String label, ReplayReport report) {
    out.append(
        String.format(
            Locale.ROOT,
            "%s%d requests over %.1f s simulated; peak %d decisions/s; Redis commands/s a"
                + " deployment would need: peak %d, mean %.1f%n",
            label,
            report.requests(),
            report.simulatedMillis() / 1000.0,
            report.peakDecisionsPerSecond(),
            report.peakRedisCommandsPerSecond(),
            report.meanRedisCommandsPerSecond()));
  }

  /** Two rule sets on the same traffic, rule by rule (a rule only one set has shows "-"). */
  public static String compare(ReplayReport a, ReplayReport b) {
    StringBuilder out = new StringBuilder();
    summary(out, "A: ", a);
    summary(out, "B: ", b);
    Map<String, ReplayReport.RuleReport> left = byRule(a);
    Map<String, ReplayReport.RuleReport> right = byRule(b);
    Set<String> rules = new LinkedHashSet<>(left.keySet());
    rules.addAll(right.keySet());
    out.append(
        String.format(
            "%n%-40s %9s %9s %9s %9s %9s %9s %8s%n",
            "rule", "req A", "req B", "refused A", "refused B", "shadow A", "shadow B", "change"));
    rules.stream()
        .sorted()
        .forEach(
            rule -> {
              ReplayReport.RuleReport l = left.get(rule);
              ReplayReport.RuleReport r = right.get(rule);
              out.append(
                  String.format(
                      Locale.ROOT,
                      "%-40s %9s %9s %9s %9s %9s %9s %8s%n",
                      rule,
                      n(l, ReplayReport.RuleReport::requests),
                      n(r, ReplayReport.RuleReport::requests),
                      n(l, ReplayReport.RuleReport::refused),
                      n(r, ReplayReport.RuleReport::refused),
                      n(l, ReplayReport.RuleReport::shadowRefused),
                      n(r, ReplayReport.RuleReport::shadowRefused),
                      change(l, r)));
              out.append("  limit: ").append(limits(l, r)).append('\n');
              if (r != null
                  && !r.topLimited().isEmpty()
                  && (l == null || l.refused() != r.refused())) {
                out.append("  B limits most: ").append(keys(r)).append('\n');
              }
            });
    return out.toString();
  }

  /** The rule's limit, or A's and B's when they differ. */
  private static String limits(ReplayReport.RuleReport a, ReplayReport.RuleReport b) {
    String left = a == null ? "-" : a.limit();
    String right = b == null ? "-" : b.limit();
    return left.equals(right) ? left : "A " + left + "; B " + right;
  }

  /** Refused share of requests, B minus A, in percentage points of the rule's requests. */
  private static String change(ReplayReport.RuleReport a, ReplayReport.RuleReport b) {
    if (a == null || b == null || a.requests() == 0 || b.requests() == 0) {
      return "-";
    }
    double delta = 100.0 * b.refused() / b.requests() - 100.0 * a.refused() / a.requests();
    return String.format(Locale.ROOT, "%+.1f%%", delta);
  }

  private static String n(
      ReplayReport.RuleReport rule, Function<ReplayReport.RuleReport, Long> value) {
    return rule == null ? "-" : String.valueOf(value.apply(rule));
  }

  private static Map<String, ReplayReport.RuleReport> byRule(ReplayReport report) {
    return report.rules().stream()
        .collect(Collectors.toMap(ReplayReport.RuleReport::rule, Function.identity()));
  }

  private static String keys(ReplayReport.RuleReport rule) {
    return rule.topLimited().stream()
        .map((SpaceSaving.Counted<String> k) -> k.key() + " (" + k.count() + ")")
        .collect(Collectors.joining(", "));
  }
}
