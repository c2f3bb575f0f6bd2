package dev.sluice.admin;

import dev.sluice.rules.Limit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleKind;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.Window;
import java.util.Comparator;
import java.util.function.Supplier;

/**
 * {@code GET /rlconfig}: the loaded limits as envoyproxy/ratelimit's debug port prints them, one
 * line per node with a {@code rate_limit}: {@code <domain>.<path>: unit=<UNIT>
 * requests_per_unit=<n>, shadow_mode: <bool>, quota_mode: <bool>} (an unlimited node shows {@code
 * unit=UNKNOWN requests_per_unit=0}, as there). Scripts that scrape the reference's dump keep
 * working; Sluice's own view, with files and lines, is the JSON {@code /rules}. Lines are sorted
 * (the reference's are in map order). A limit counted by another algorithm than a fixed window says
 * so at the end of its line; a window other than one unit says {@code unit_multiplier=<n>} or
 * {@code time_zone=<zone>} after its unit.
 */
public final class RlconfigHandler implements AdminRoute {
  private final Supplier<RuleSet> rules;

  /** {@code rules} is read once per request: the snapshot being served. */
  public RlconfigHandler(Supplier<RuleSet> rules) {
    this.rules = rules;
  }

  @Override
  public AdminResponse answer(AdminRequest request) {
    return AdminResponse.text(200, dump(rules.get()));
  }

  /** The dump of {@code rules}: one {@code \n}-terminated line per limit node, empty for none. */
  public static String dump(RuleSet rules) {
    StringBuilder out = new StringBuilder();
    rules.rules().stream().sorted(Comparator.comparing(Rule::id)).forEach(rule -> line(rule, out));
    return out.toString();
  }

  private static void line(Rule rule, StringBuilder out) {
    if (rule.kind() instanceof RuleKind.NoRateLimit) {
      return;
    }
    String limit = "unit=UNKNOWN requests_per_unit=0";
    String algorithm = "";
    if (rule.kind() instanceof RuleKind.Counted counted) {
      Limit l = counted.limit();
      limit =
          "unit="
              + l.unit().name()
              + window(l.window())
              + " requests_per_unit="
              + l.requestsPerUnit();
      if (!l.algorithm().isReferenceAlgorithm()) {
        algorithm =
            ", algorithm: "
                + l.algorithm().configName()
                + (l.algorithm().takesBurst() ? ", burst: " + l.burst() : "");
      }
    }
    out.append(rule.id())
        .append(": ")
        .append(limit)
        .append(", shadow_mode: ")
        .append(rule.shadowMode())
        .append(", quota_mode: ")
        .append(rule.flags().quotaMode())
        .append(algorithm)
        .append('\n');
  }

  /**
   * Nothing for one whole unit, so the reference's lines stay as they were; else the field that
   * makes the window: {@code " unit_multiplier=15"}, {@code " time_zone=Europe/Berlin"}.
   */
  private static String window(Window window) {
    if (window instanceof Window.Calendar calendar) {
      return " time_zone=" + calendar.zone().getId();
    }
    long multiplier = ((Window.Fixed) window).multiplier();
    return multiplier == 1 ? "" : " unit_multiplier=" + multiplier;
  }
}
