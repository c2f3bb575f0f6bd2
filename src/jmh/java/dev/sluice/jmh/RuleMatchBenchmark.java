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
 * {@code RuleSet.match} for one descriptor: the demo rules, and generated domains of 10, 1,000 and
 * 100,000 rules (issue 16 part 4: the cost must not grow with the rule count), each looked up by an
 * exact value, a wildcard, a key-only fallback and a nested path. Run: {@code java -jar
 * target/benchmarks.jar RuleMatchBenchmark}; the 100,000-rule setup takes a few seconds to load.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RuleMatchBenchmark {
  /** {@code demo}, or how many rules the generated domain {@code gen} holds. */
  @Param({"demo", "10", "1000", "100000"})
  public String rules;

  @Param({"exact", "wildcard", "keyOnly", "nested"})
  public String lookup;

  private RuleSet ruleSet;
  private String domain;
  private List<Entry> entries;

  @Setup
  public void setUp() {
    boolean demo = rules.equals("demo");
    ScaledRules scaled = demo ? null : new ScaledRules(Integer.parseInt(rules));
    ruleSet = demo ? BenchmarkRules.demo() : scaled.load();
    domain = demo ? "edge" : "gen";
    entries = demo ? demoLookup(lookup) : scaled.lookup(lookup);
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

  @Benchmark
  public Optional<Match> match() {
    return ruleSet.match(domain, entries);
  }
}
