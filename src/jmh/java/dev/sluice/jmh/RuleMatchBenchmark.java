package dev.sluice.jmh;

import dev.sluice.rules.Entry;
import dev.sluice.rules.Match;
import dev.sluice.rules.RuleSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code RuleSet.match} for one descriptor: the demo rules and a generated domain of ~2,000 rules,
 * each looked up by an exact value, a wildcard, a key-only fallback and a nested path.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RuleMatchBenchmark {
  @Param({"demo", "generated"})
  public String rules;

  @Param({"exact", "wildcard", "keyOnly", "nested"})
  public String lookup;

  private RuleSet ruleSet;
  private String domain;
  private List<Entry> entries;

  @Setup
  public void setUp() {
    boolean demo = rules.equals("demo");
    ruleSet = demo ? BenchmarkRules.demo() : BenchmarkRules.generated();
    domain = demo ? "edge" : "gen";
    entries = demo ? demoLookup(lookup) : generatedLookup(lookup);
    if (ruleSet.match(domain, entries).isEmpty()) {
      throw new IllegalStateException(rules + "/" + lookup + " matches no rule: " + entries);
    }
  }

  private static List<Entry> demoLookup(String lookup) {
    return switch (lookup) {
      case "exact" -> List.of(new Entry("api_key", "monitoring"));
      case "wildcard" -> List.of(new Entry("path", "/api/users"), new Entry("method", "GET"));
      case "keyOnly" -> List.of(new Entry("remote_address", "10.0.0.1"));
      case "nested" -> List.of(new Entry("path", "/api/orders"), new Entry("method", "POST"));
      default -> throw new IllegalArgumentException(lookup);
    };
  }

  /** The wildcard and key-only lookups are the worst case: every wildcard before is tried. */
  private static List<Entry> generatedLookup(String lookup) {
    return switch (lookup) {
      case "exact" -> List.of(new Entry("tenant", "t777"));
      case "wildcard" ->
          List.of(new Entry("tenant", "w" + (BenchmarkRules.WILDCARDS - 1) + "-abc"));
      case "keyOnly" -> List.of(new Entry("tenant", "unknown"));
      case "nested" ->
          List.of(new Entry("org", "o50"), new Entry("team", "x5"), new Entry("user", "u1"));
      default -> throw new IllegalArgumentException(lookup);
    };
  }

  @Benchmark
  public Optional<Match> match() {
    return ruleSet.match(domain, entries);
  }
}
