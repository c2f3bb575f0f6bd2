package dev.sluice.rules.load;

import dev.sluice.config.RulesConfig.Reading;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.DomainSpec;
import dev.sluice.rules.RuleSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Loads YAML rule files into a {@link RuleSet}: one domain per file, envoyproxy/ratelimit's format
 * plus Sluice's {@code algorithm} and {@code burst}.
 *
 * <p>Validation is stricter than the reference: unknown fields, known fields in the wrong place, a
 * second YAML document and repeated fields are errors, so a typo never silently changes a limit.
 * Every problem of every file is reported, each with its file and line. Immutable and thread-safe;
 * {@link #load} may run concurrently.
 */
public final class RuleLoader {
  private static final Comparator<RuleProblem> BY_FILE_THEN_LINE =
      Comparator.comparing(RuleProblem::file).thenComparingInt(RuleProblem::line);

  private final RuleFileParser parser;
  private final Set<Reading> reading;

  /**
   * Loads zero rules as a valid (empty) rule set, one domain per file: for tests and tools; {@code
   * serve} and {@code check} use {@link #RuleLoader(Algorithm, Set)} with the operator's choice.
   *
   * @param defaultAlgorithm the algorithm of rules that do not name one
   */
  public RuleLoader(Algorithm defaultAlgorithm) {
    this(defaultAlgorithm, Set.of(Reading.ALLOW_EMPTY_RULES));
  }

  /**
   * @param reading what this loader allows beyond its strict default, empty for none. Without
   *     {@link Reading#ALLOW_EMPTY_RULES} a load that finds no rule at all (an emptied directory,
   *     or an {@code rm -rf} that has removed every file but not yet the directory) fails: zero
   *     rules limit nothing, so serving them silently would switch limiting off for everyone. With
   *     {@link Reading#MERGE_DOMAINS} files may share a domain (the reference's
   *     MERGE_DOMAIN_CONFIG), adding top-level descriptors to it ({@link DomainMerge}); otherwise a
   *     domain is one file's.
   */
  public RuleLoader(Algorithm defaultAlgorithm, Set<Reading> reading) {
    this(
        new RuleFileParser(
            Objects.requireNonNull(defaultAlgorithm, "defaultAlgorithm"), Consistency.EXACT),
        reading);
  }

  private RuleLoader(RuleFileParser parser, Set<Reading> reading) {
    this.parser = parser;
    this.reading = Set.copyOf(reading);
  }

  /**
   * This loader, where rules that name no {@code consistency} get {@code consistency} (otherwise
   * {@link Consistency#EXACT}); a rule whose algorithm that mode cannot count is a load error.
   */
  public RuleLoader withDefaultConsistency(Consistency consistency) {
    return new RuleLoader(parser.withDefaultConsistency(consistency), reading);
  }

  /**
   * Reads a directory of rule files (recursively, {@code *.yaml} and {@code *.yml}, skipping
   * dot-entries) or one rule file. Zero rules fail unless this loader allows empty rules.
   *
   * @return {@link LoadResult.Loaded} when every file is valid, else {@link LoadResult.Failed} with
   *     every problem found; a bad file fails the whole load. Never throws for bad input.
   */
  public LoadResult load(Path path) {
    Objects.requireNonNull(path, "path");
    RuleFiles.Listing listing = RuleFiles.read(path);
    List<RuleProblem> problems = new ArrayList<>(listing.problems());
    List<ParsedFile> parsed = listing.files().stream().map(parser::parse).toList();
    return compile(path, parsed, problems, RuleFiles.version(listing.files()));
  }

  /**
   * Loads rule documents built in memory (one per domain, as a file holds one), with exactly the
   * checks and messages of {@link #load(Path)}; problems name each document's {@link
   * RuleDocument#path()} with line 0.
   *
   * @param version what the source calls this set of documents (an xDS {@code version_info})
   */
  public LoadResult load(List<RuleDocument> documents, String version) {
    List<ParsedFile> parsed = documents.stream().map(parser::parse).toList();
    Path where = documents.isEmpty() ? Path.of("rules") : documents.get(0).path();
    return compile(where, parsed, new ArrayList<>(), version);
  }

  private LoadResult compile(
      Path path, List<ParsedFile> parsed, List<RuleProblem> problems, String version) {
    parsed.forEach(file -> problems.addAll(file.problems()));
    List<DomainSpec> specs;
    if (reading.contains(Reading.MERGE_DOMAINS) && problems.isEmpty()) {
      DomainMerge.Result merged = DomainMerge.merge(parsed);
      problems.addAll(merged.problems());
      specs = merged.domains();
    } else {
      problems.addAll(duplicateDomains(parsed));
      specs = problems.isEmpty() ? parsed.stream().map(ParsedFile::spec).toList() : List.of();
    }
    if (!problems.isEmpty()) {
      return failed(problems);
    }
    RuleSet rules;
    try {
      rules = RuleSet.compile(specs);
    } catch (IllegalArgumentException e) {
      // The checks above mirror compile's; reaching this is a loader bug, still not a crash.
      return failed(List.of(new RuleProblem(path, 0, e.getMessage())));
    }
    if (!reading.contains(Reading.ALLOW_EMPTY_RULES) && rules.rules().isEmpty()) {
      return failed(List.of(new RuleProblem(path, 0, noRules(parsed.size()))));
    }
    List<Path> files = parsed.stream().map(file -> file.file().path()).toList();
    return new LoadResult.Loaded(rules, version, files);
  }

  /**
   * A cheap identity of what {@link #load} would read now: the content hash of every rule file (the
   * {@link LoadResult.Loaded#version} when valid), plus a mark when files cannot be read. Reads the
   * files but parses nothing, so a poller can call it often.
   */
  public String fingerprint(Path path) {
    RuleFiles.Listing listing = RuleFiles.read(Objects.requireNonNull(path, "path"));
    String version = RuleFiles.version(listing.files());
    return listing.problems().isEmpty()
        ? version
        : version + "!" + Integer.toHexString(listing.problems().hashCode());
  }

  private static String noRules(int files) {
    return "no rules found ("
        + files
        + " rule file(s)): zero rules would limit nothing; refusing them (pass"
        + " --allow-empty-rules to serve no limits)";
  }

  /** A domain declared by an earlier file (in load order) is reported on each later one. */
  private static List<RuleProblem> duplicateDomains(List<ParsedFile> parsed) {
    Map<String, ParsedFile> firstByDomain = new HashMap<>();
    List<RuleProblem> problems = new ArrayList<>();
    for (ParsedFile file : parsed) {
      if (file.domain().isEmpty()) {
        continue;
      }
      ParsedFile first = firstByDomain.putIfAbsent(file.domain(), file);
      if (first != null) {
        String message =
            "duplicate domain '" + file.domain() + "' (also in " + first.file().path() + ")";
        problems.add(new RuleProblem(file.file().path(), file.domainLine(), message));
      }
    }
    return problems;
  }

  private static LoadResult failed(List<RuleProblem> problems) {
    return new LoadResult.Failed(problems.stream().distinct().sorted(BY_FILE_THEN_LINE).toList());
  }
}
