package dev.sluice.rules.load;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.Limit;
import dev.sluice.rules.NamedLimit;
import dev.sluice.rules.RateLimitSpec;
import dev.sluice.rules.RuleKind;
import dev.sluice.rules.Unit;
import dev.sluice.rules.Window;
import dev.sluice.rules.load.NodeReader.Fields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads one {@code rate_limit} block: the reference's {@code unit}, {@code requests_per_unit},
 * {@code unlimited}, {@code name} and {@code replaces}, plus Sluice's {@code algorithm}, {@code
 * burst}, {@code consistency}, and the window's {@code unit_multiplier} and {@code time_zone}
 * ({@link WindowReader}). A missing {@code requests_per_unit} means 0 (every hit is over the
 * limit), as in the reference, where that is how a "block" rule is written.
 */
final class RateLimitReader {
  private static final String UNITS = "second, minute, hour, day, week, month or year";
  private static final String ALGORITHMS = Algorithm.CONFIG_NAMES;

  private final NodeReader reader;
  private final WindowReader windows;
  private final Algorithm defaultAlgorithm;
  private final Consistency defaultConsistency;

  RateLimitReader(NodeReader reader, Algorithm defaultAlgorithm, Consistency defaultConsistency) {
    this.reader = reader;
    this.windows = new WindowReader(reader);
    this.defaultAlgorithm = defaultAlgorithm;
    this.defaultConsistency = defaultConsistency;
  }

  /** The block's spec; empty (after reporting) when anything in it is wrong. */
  Optional<RateLimitSpec> read(Node node) {
    if (NodeReader.isNull(node)) {
      reader.report(
          node, "rate_limit is empty; give it a unit and requests_per_unit, or unlimited");
      return Optional.empty();
    }
    Optional<Fields> fields = reader.fields(node, Place.RATE_LIMIT);
    if (fields.isEmpty()) {
      return Optional.empty();
    }
    Fields f = fields.get();
    int before = reader.problemCount();
    boolean unlimited = reader.flag(f, "unlimited");
    boolean unlimitedValid = reader.problemCount() == before;
    String name = reader.text(f, "name").orElse("");
    Set<String> replaces = replaces(f, name);
    if (!unlimitedValid) {
      // Which checks apply depends on unlimited: guessing would only add misleading problems.
      return Optional.empty();
    }
    Optional<Limit> limit = unlimited ? checkUnlimited(f) : limit(f);
    if (reader.problemCount() != before) {
      return Optional.empty();
    }
    RuleKind kind = unlimited ? RuleKind.UNLIMITED : new RuleKind.Counted(limit.orElseThrow());
    return Optional.of(new RateLimitSpec(kind, name, replaces));
  }

  /**
   * A {@code rate_limits} list: each item read like a {@code rate_limit} block. Empty (after
   * reporting) when the list is empty, an item is wrong or {@code unlimited}, or two items count
   * per the same unit with the same algorithm.
   */
  Optional<RateLimitSpec> readList(Node node, List<Node> items) {
    if (items.isEmpty()) {
      reader.report(node, "rate_limits is empty; give it one limit or more, each with a unit");
      return Optional.empty();
    }
    int before = reader.problemCount();
    List<NamedLimit> limits = new ArrayList<>();
    Map<String, Integer> firstLine = new HashMap<>();
    Set<String> replaces = new LinkedHashSet<>();
    for (Node item : items) {
      Optional<RateLimitSpec> spec = read(item);
      if (spec.isEmpty()) {
        continue;
      }
      if (!(spec.get().kind() instanceof RuleKind.Counted counted)) {
        reader.report(
            item,
            "a rate_limits item cannot be unlimited; write rate_limit: {unlimited: true} instead");
        continue;
      }
      Limit limit = counted.limit();
      // By the window's key: 60 minutes and an hour would share one counter.
      String slot = limit.window().keyPart() + "/" + limit.algorithm();
      Integer first = firstLine.putIfAbsent(slot, NodeReader.line(item));
      if (first != null) {
        reader.report(
            item,
            "rate_limits has two limits per "
                + limit.window().words()
                + " counted by "
                + limit.algorithm().configName()
                + " (first at line "
                + first
                + "); they would count the same hits twice");
        continue;
      }
      limits.add(new NamedLimit(spec.get().name(), limit));
      replaces.addAll(spec.get().replaces());
    }
    if (reader.problemCount() != before) {
      return Optional.empty();
    }
    return Optional.of(RateLimitSpec.several(limits, replaces));
  }

  /**
   * An unlimited rule counts nothing; {@code requests_per_unit} is ignored, as in the reference.
   */
  private Optional<Limit> checkUnlimited(Fields f) {
    if (f.has("unit")) {
      reader.report(f.line("unit"), "should not specify rate limit unit when unlimited");
    }
    for (String field :
        List.of("algorithm", "burst", "consistency", "unit_multiplier", "time_zone")) {
      if (f.has(field)) {
        reader.report(f.line(field), "should not specify " + field + " when unlimited");
      }
    }
    return Optional.empty();
  }

  private Optional<Limit> limit(Fields f) {
    Optional<Unit> unit = unit(f);
    OptionalLong requestsPerUnit = reader.uint32(f, "requests_per_unit");
    WindowReader.Parts parts = windows.parts(f);
    Optional<Algorithm> algorithm = algorithm(f);
    OptionalLong burst = reader.uint32(f, "burst");
    if (burst.isPresent() && algorithm.isPresent() && !algorithm.get().takesBurst()) {
      String why = f.has("algorithm") ? "" : " (the default algorithm)";
      reader.report(
          f.line("burst"),
          "burst applies only to token_bucket, but this rule uses "
              + algorithm.get().configName()
              + why);
      return Optional.empty();
    }
    if (unit.isEmpty() || algorithm.isEmpty()) {
      return Optional.empty();
    }
    if (!algorithm.get().allows(unit.get())) {
      String why = f.has("algorithm") ? "" : " (the default algorithm)";
      reader.report(
          f.line("unit"),
          algorithm.get().configName()
              + why
              + " counts per second, minute, hour or day, not per "
              + unit.get().name().toLowerCase(Locale.ROOT));
      return Optional.empty();
    }
    Optional<Window> window = windows.window(f, parts, unit.get(), algorithm.get());
    Optional<Consistency> consistency = consistency(f, algorithm.get());
    if (window.isEmpty() || consistency.isEmpty()) {
      return Optional.empty();
    }
    long rate = requestsPerUnit.orElse(0);
    return Optional.of(
        new Limit(rate, window.get(), algorithm.get(), burst.orElse(rate), consistency.get()));
  }

  /** The block's consistency, or the default; empty (after reporting) when it cannot count. */
  private Optional<Consistency> consistency(Fields f, Algorithm algorithm) {
    Optional<Consistency> consistency = Optional.of(defaultConsistency);
    if (f.has("consistency")) {
      int before = reader.problemCount();
      String name = reader.text(f, "consistency").orElse("");
      consistency = Consistency.parse(name);
      if (consistency.isEmpty() && reader.problemCount() == before) {
        reader.report(
            f.line("consistency"),
            "invalid consistency '" + name + "'; expected " + Consistency.CONFIG_NAMES);
      }
    }
    if (consistency.isPresent() && !consistency.get().supports(algorithm)) {
      String why = f.has("consistency") ? "" : " (the default consistency)";
      int line = f.has("consistency") ? f.line("consistency") : f.line();
      reader.report(
          line,
          "consistency "
              + consistency.get().configName()
              + why
              + " counts only fixed_window, but this rule uses "
              + algorithm.configName()
              + "; set consistency: exact or split");
      return Optional.empty();
    }
    return consistency;
  }

  private Optional<Unit> unit(Fields f) {
    if (!f.has("unit") || NodeReader.isNull(f.get("unit").get())) {
      reader.report(f.line("unit"), "rate_limit has no unit; expected " + UNITS);
      return Optional.empty();
    }
    int before = reader.problemCount();
    String name = reader.text(f, "unit").orElse("");
    Optional<Unit> unit = Unit.parse(name);
    if (unit.isEmpty() && reader.problemCount() == before) {
      reader.report(f.line("unit"), "invalid rate limit unit '" + name + "'; expected " + UNITS);
    }
    return unit;
  }

  private Optional<Algorithm> algorithm(Fields f) {
    if (!f.has("algorithm")) {
      return Optional.of(defaultAlgorithm);
    }
    int before = reader.problemCount();
    String name = reader.text(f, "algorithm").orElse("");
    Optional<Algorithm> algorithm = Algorithm.parse(name);
    if (algorithm.isEmpty() && reader.problemCount() == before) {
      reader.report(
          f.line("algorithm"), "invalid algorithm '" + name + "'; expected " + ALGORITHMS);
    }
    return algorithm;
  }

  private Set<String> replaces(Fields f, String ownName) {
    Set<String> names = new LinkedHashSet<>();
    for (Node entry : reader.list(f, "replaces")) {
      if (NodeReader.isNull(entry)) {
        reader.report(entry, "should not have an empty replaces entry");
        continue;
      }
      reader.fields(entry, Place.REPLACES_ENTRY).ifPresent(e -> replaced(e, ownName, names));
    }
    return names;
  }

  private void replaced(Fields entry, String ownName, Set<String> names) {
    String name = reader.text(entry, "name").orElse("");
    if (name.isEmpty()) {
      reader.report(entry.line(), "should not have an empty replaces entry");
    } else if (name.equals(ownName)) {
      reader.report(
          entry.line("name"), "replaces should not contain name of same descriptor '" + name + "'");
    } else {
      names.add(name);
    }
  }
}
