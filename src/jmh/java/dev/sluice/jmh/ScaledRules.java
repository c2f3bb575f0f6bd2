package dev.sluice.jmh;

import dev.sluice.config.RulesConfig.Reading;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.RuleSet;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A generated domain {@code gen} of exactly {@code rules} rules on one key, for the scale figures:
 * a tenth are wildcards {@code w<i>-*}, one is a key-only {@code tenant} fallback, one is nested
 * {@code org -> team -> user}, the rest are exact values {@code t<i>}. The lookups are the worst
 * cases: the last wildcard in file order, and a value that no exact value or wildcard takes. {@link
 * #write} also serves {@code bench/footprint.sh} (startup and reload with many rules).
 */
final class ScaledRules {
  /** Top-level descriptors per file: about 1.8 MB, under SnakeYAML's 3 MiB per document. */
  static final int PER_FILE = 20_000;

  private final int rules;
  private final int wildcards;
  private final int exact;

  ScaledRules(int rules) {
    if (rules < 4) {
      throw new IllegalArgumentException("a scaled domain needs at least 4 rules: " + rules);
    }
    this.rules = rules;
    this.wildcards = Math.max(1, rules / 10);
    this.exact = rules - wildcards - 2;
  }

  /**
   * Writes the domain to {@code dir} as files of at most {@value #PER_FILE} top-level descriptors
   * ({@code gen-000.yaml}, ...): one file of 100,000 rules would pass SnakeYAML's 3 MiB document
   * limit, so the domain is split and loaded with {@code --merge-domains}. {@code limit} is the
   * first exact rule's, so a reload that changes it changes the rules.
   */
  void write(Path dir, long limit) throws IOException {
    Files.createDirectories(dir);
    List<String> descriptors = descriptors(limit);
    for (int from = 0, n = 0; from < descriptors.size(); from += PER_FILE, n++) {
      StringBuilder yaml = new StringBuilder(PER_FILE * 90).append("domain: gen\ndescriptors:\n");
      descriptors
          .subList(from, Math.min(from + PER_FILE, descriptors.size()))
          .forEach(yaml::append);
      Files.writeString(dir.resolve(String.format(Locale.ROOT, "gen-%03d.yaml", n)), yaml);
    }
  }

  private List<String> descriptors(long limit) {
    List<String> out = new ArrayList<>(rules);
    for (int i = 0; i < exact; i++) {
      long perUnit = i == 0 ? limit : 100 + i % 1000;
      out.add(
          "  - key: tenant\n    value: t"
              + i
              + "\n    rate_limit: {unit: minute, requests_per_unit: "
              + perUnit
              + "}\n");
    }
    for (int i = 0; i < wildcards; i++) {
      out.add(
          "  - key: tenant\n    value: \"w"
              + i
              + "-*\"\n    rate_limit: {unit: second, requests_per_unit: 10}\n");
    }
    out.add("  - key: tenant\n    rate_limit: {unit: hour, requests_per_unit: 1000}\n");
    out.add(
        """
          - key: org
            value: o1
            descriptors:
              - key: team
                value: x1
                descriptors:
                  - key: user
                    rate_limit: {unit: minute, requests_per_unit: 60}
        """);
    return out;
  }

  List<Entry> lookup(String lookup) {
    return switch (lookup) {
      case "exact" -> List.of(new Entry("tenant", "t" + exact / 2));
      case "wildcard" -> List.of(new Entry("tenant", "w" + (wildcards - 1) + "-abc"));
      case "keyOnly" -> List.of(new Entry("tenant", "unknown"));
      case "nested" ->
          List.of(new Entry("org", "o1"), new Entry("team", "x1"), new Entry("user", "u1"));
      default -> throw new IllegalArgumentException(lookup);
    };
  }

  RuleSet load() {
    try {
      Path dir = Files.createTempDirectory("sluice-jmh");
      try {
        write(dir, 100);
        LoadResult result =
            new RuleLoader(Algorithm.FIXED_WINDOW, Set.of(Reading.MERGE_DOMAINS)).load(dir);
        if (result instanceof LoadResult.Failed failed) {
          throw new IllegalStateException("generated rules do not load: " + failed.problems());
        }
        return ((LoadResult.Loaded) result).rules();
      } finally {
        try (Stream<Path> files = Files.list(dir)) {
          for (Path file : files.toList()) {
            Files.delete(file);
          }
        }
        Files.delete(dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes {@code rules} rules into directory {@code args[1]}: {@code java -cp
   * target/benchmarks.jar dev.sluice.jmh.ScaledRules 100000 /tmp/rules [limit]}; serve or check it
   * with {@code --merge-domains}.
   */
  public static void main(String[] args) throws IOException {
    ScaledRules scaled = new ScaledRules(Integer.parseInt(args[0]));
    long limit = args.length > 2 ? Long.parseLong(args[2]) : 100;
    scaled.write(Path.of(args[1]), limit);
  }
}
