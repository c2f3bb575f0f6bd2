package dev.sluice.explain;

import dev.sluice.rules.Limit;
import dev.sluice.rules.MatchStep;
import dev.sluice.rules.Rule;
import dev.sluice.store.CounterState;
import java.util.List;
import java.util.stream.Collectors;

/** The human-readable form of an {@link Explanation}, as {@code sluice explain} prints it. */
public final class ExplainText {
  private ExplainText() {}

  public static String render(Explanation explanation) {
    StringBuilder out = new StringBuilder();
    out.append("domain ").append(explanation.domain());
    if (!explanation.domainKnown()) {
      out.append(": no rule file declares it; every descriptor is answered OK, nothing counted\n");
      return out.toString();
    }
    out.append('\n');
    List<DescriptorExplanation> descriptors = explanation.descriptors();
    for (int i = 0; i < descriptors.size(); i++) {
      out.append('\n');
      descriptor(out, i + 1, descriptors.get(i));
    }
    return out.toString();
  }

  private static void descriptor(StringBuilder out, int number, DescriptorExplanation d) {
    out.append("descriptor ").append(number).append(": ").append(entries(d)).append('\n');
    int level = -1;
    for (MatchStep step : d.steps()) {
      if (step.depth() != level) {
        level = step.depth();
        out.append(String.format("  level %d  %s%n", level + 1, step.entry()));
      }
      out.append(String.format("    %-24s %s%n", candidate(step), outcome(step)));
    }
    d.rule().ifPresent(rule -> line(out, "rule", rule(rule)));
    effect(out, d.effect());
  }

  private static String entries(DescriptorExplanation d) {
    return d.entries().stream().map(Object::toString).collect(Collectors.joining(", "));
  }

  private static String candidate(MatchStep step) {
    return switch (step.candidate()) {
      case EXACT -> "exact \"" + step.configured() + "\"";
      case WILDCARD -> "wildcard \"" + step.configured() + "\"";
      case KEY_ONLY -> step.outcome() == MatchStep.Outcome.NO_KEY ? "key" : "key only";
    };
  }

  private static String outcome(MatchStep step) {
    String at = step.rule().map(r -> "  " + r.id() + " (" + r.origin() + ")").orElse("");
    return switch (step.outcome()) {
      case NO_KEY -> "no descriptor has key \"" + step.entry().key() + "\" here: branch ends";
      case NOT_CONFIGURED -> "not configured";
      case PATTERN_MISMATCH -> "pattern does not match" + at;
      case MATCHED -> "taken" + at;
      case INNER_WITHOUT_RATE_LIMIT ->
          "skipped: last entry, but an inner descriptor without rate_limit" + at;
      case NO_CHILDREN -> "skipped: more entries follow, but it has no children" + at;
      case DESCEND -> "descend into its children" + at;
      case BACKTRACK -> "backtrack: its children took no match, try the next candidate" + at;
    };
  }

  private static String rule(Rule rule) {
    StringBuilder text = new StringBuilder(rule.id());
    if (!rule.name().isEmpty()) {
      text.append(" \"").append(rule.name()).append('"');
    }
    return text.append(" at ").append(rule.origin()).toString();
  }

  private static void effect(StringBuilder out, Effect effect) {
    // Java 17 has no pattern switch: an instanceof chain over the sealed cases.
    if (effect instanceof Effect.Counted counted) {
      counted(out, counted);
    } else if (effect instanceof Effect.Replaced replaced) {
      line(
          out,
          "effect",
          "replaced by " + String.join(", ", replaced.by()) + ": dropped, OK, nothing counted");
    } else if (effect instanceof Effect.Unlimited) {
      line(out, "effect", "unlimited: OK, remaining 4294967295, nothing counted");
    } else if (effect instanceof Effect.NoRateLimit) {
      line(out, "effect", "descriptor without rate_limit (exempt): OK, nothing counted");
    } else if (effect instanceof Effect.NoMatch) {
      line(out, "effect", "no rule matches: OK, nothing counted");
    } else {
      line(out, "effect", "unknown domain: OK, nothing counted");
    }
  }

  private static void counted(StringBuilder out, Effect.Counted c) {
    Limit limit = c.hit().limit();
    line(out, "limit", limit.describe() + (c.override() ? " (the client's override)" : ""));
    String mode = c.shadowMode() ? "; shadow mode: answered OK even over the limit" : "";
    String quota =
        c.quotaMode() ? "; quota mode: refuses only if every quota descriptor is over" : "";
    line(out, "effect", "counted, " + c.hit().hits() + " hit(s) per request" + mode + quota);
    line(out, "key", c.hit().key());
    line(out, "counter", counter(limit, c.counter()));
    String next =
        c.nextOverLimit()
            ? (c.shadowMode() ? "over the limit, answered OK (shadow)" : "OVER_LIMIT")
            : "OK";
    line(out, "next", "a request now would be " + next);
  }

  private static String counter(Limit limit, CounterState state) {
    if (!state.exists()) {
      return "none yet (a fresh "
          + limit.algorithm().stateNoun()
          + "), "
          + state.usage().remaining()
          + " remaining";
    }
    long seconds = Math.max(0, (state.usage().untilReset().toMillis() + 999) / 1000);
    return state.usage().countAfter()
        + " counted, "
        + state.usage().remaining()
        + " remaining, resets in "
        + seconds
        + "s";
  }

  private static void line(StringBuilder out, String label, String text) {
    out.append(String.format("  %-8s %s%n", label, text));
  }
}
