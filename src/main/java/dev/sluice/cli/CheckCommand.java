package dev.sluice.cli;

import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Validates rule files without starting anything: exit 0 and a summary, or 1 and the problems. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = "Validate rule files: one 'FILE:LINE: message' per problem.")
final class CheckCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin RulesOptions rules;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    LoadResult result =
        new RuleLoader(rules.defaultAlgorithm, rules.allowEmptyRules)
            .mergingDomains(rules.mergeDomains)
            .withDefaultConsistency(rules.defaultConsistency)
            .load(rules.config);
    if (result instanceof LoadResult.Failed failed) {
      failed.problems().forEach(err::println);
      err.printf("%d problem(s) in %s%n", failed.problems().size(), rules.config);
      return 1;
    }
    LoadResult.Loaded loaded = (LoadResult.Loaded) result;
    out.printf(
        "OK: %d file(s), %d domain(s), %d rule(s), version %s%n",
        loaded.files().size(),
        loaded.rules().domains().size(),
        loaded.rules().rules().size(),
        loaded.version());
    return 0;
  }
}
