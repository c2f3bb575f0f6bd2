package dev.sluice.cli;

import dev.sluice.config.SettingValues;
import dev.sluice.rlqs.BucketReport;
import dev.sluice.rules.Rule;
import dev.sluice.rules.load.LoadResult;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Validates rule files without starting anything: exit 0, a summary and each rule's limits in words
 * ({@code api.user: 100 per 15 minutes, fixed_window}), or 1 and the problems.
 */
@Command(
    modelTransformer = SettingOptions.Check.class,
    name = "check",
    mixinStandardHelpOptions = true,
    description = "Validate rule files: one 'FILE:LINE: message' per problem.")
final class CheckCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    LoadResult result = rules().loader().load(rules().config());
    if (result instanceof LoadResult.Failed failed) {
      failed.problems().forEach(err::println);
      err.printf("%d problem(s) in %s%n", failed.problems().size(), rules().config());
      return 1;
    }
    LoadResult.Loaded loaded = (LoadResult.Loaded) result;
    out.printf(
        "OK: %d file(s), %d domain(s), %d rule(s), version %s%n",
        loaded.files().size(),
        loaded.rules().domains().size(),
        loaded.rules().rules().size(),
        loaded.version());
    loaded.rules().rules().stream()
        .sorted(Comparator.comparing(Rule::id))
        .forEach(
            rule -> describe(rule).ifPresent(text -> out.printf("  %s: %s%n", rule.id(), text)));
    return explainBuckets(loaded, out);
  }

  /** One line per {@code --bucket}; a usage error when a map is malformed or has no domain. */
  private int explainBuckets(LoadResult.Loaded loaded, PrintWriter out) {
    SettingValues values = SettingOptions.values(spec);
    List<String> buckets = values.get(ToolSettings.CHECK_BUCKET);
    String domain = values.get(ToolSettings.CHECK_DOMAIN);
    if (buckets.isEmpty()) {
      return 0;
    }
    if (domain == null || domain.isBlank()) {
      throw new ParameterException(spec.commandLine(), "--bucket needs --domain");
    }
    for (String bucket : buckets) {
      out.println(
          BucketReport.describe(
              loaded.rules(), domain, parseBucket(bucket), System.currentTimeMillis()));
    }
    return 0;
  }

  private Map<String, String> parseBucket(String text) {
    try {
      return BucketMaps.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /**
   * What a rule allows, each limit in words ({@code 100 per 15 minutes, fixed_window}; several
   * joined by {@code ;}), or {@code unlimited}; empty for a node without {@code rate_limit}.
   */
  private static Optional<String> describe(Rule rule) {
    if (rule.unlimited()) {
      return Optional.of("unlimited");
    }
    if (!rule.counted()) {
      return Optional.empty();
    }
    return Optional.of(
        rule.limits().stream().map(l -> l.limit().describe()).collect(Collectors.joining("; ")));
  }

  private RulesOptions rules() {
    return new RulesOptions(SettingOptions.values(spec));
  }
}
