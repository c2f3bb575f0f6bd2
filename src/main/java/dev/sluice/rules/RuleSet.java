package dev.sluice.rules;

import dev.sluice.rules.DescriptorNode.KeyGroup;
import dev.sluice.rules.DescriptorNode.Wildcard;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The compiled rules of every domain: immutable, thread-safe, swapped whole on reload.
 *
 * <p>Matching walks one level per request entry. At each level the candidates are tried in this
 * order: the exact value, then each wildcard value that matches (file order), then the key-only
 * descriptor. Unlike the reference service, a candidate whose subtree cannot take the remaining
 * entries does not end the search: the next candidate at that level is tried (backtracking).
 */
public final class RuleSet {
  private static final RuleSet EMPTY = new RuleSet(Map.of(), List.of());

  /** Hash lookup on the request path; {@link #domains()} gives the sorted names. */
  private final Map<String, Map<String, KeyGroup>> domains;

  private final Set<String> domainNames;
  private final List<Rule> rules;

  private RuleSet(Map<String, Map<String, KeyGroup>> domains, List<Rule> rules) {
    this.domains = Map.copyOf(domains);
    this.domainNames = Collections.unmodifiableSet(new java.util.TreeSet<>(domains.keySet()));
    this.rules = rules;
  }

  public static RuleSet empty() {
    return EMPTY;
  }

  /**
   * Compiles validated rule files into a rule set.
   *
   * @throws IllegalArgumentException on a duplicate domain, or the same key/value twice at a level
   */
  public static RuleSet compile(List<DomainSpec> specs) {
    Map<String, Map<String, KeyGroup>> domains = new TreeMap<>();
    List<Rule> rules = new ArrayList<>();
    for (DomainSpec spec : specs) {
      if (domains.containsKey(spec.domain())) {
        throw new IllegalArgumentException(
            "duplicate domain '" + spec.domain() + "' in " + spec.source());
      }
      domains.put(spec.domain(), compileLevel(spec.domain(), "", spec.descriptors(), rules));
    }
    return new RuleSet(Collections.unmodifiableMap(domains), List.copyOf(rules));
  }

  private static Map<String, KeyGroup> compileLevel(
      String domain, String parentPath, List<DescriptorSpec> specs, List<Rule> rules) {
    if (specs.isEmpty()) {
      return Map.of(); // most nodes are leaves: an empty map each was ~90 B per rule of 100,000
    }
    Map<String, GroupBuilder> groups = new LinkedHashMap<>();
    for (DescriptorSpec spec : specs) {
      String path =
          parentPath.isEmpty() ? spec.compositeKey() : parentPath + "." + spec.compositeKey();
      Rule rule = toRule(domain, path, spec);
      if (!(rule.kind() instanceof RuleKind.NoRateLimit)) {
        rules.add(rule);
      }
      Map<String, KeyGroup> children = compileLevel(domain, path, spec.children(), rules);
      String shared = spec.shareThreshold() ? spec.value().orElseThrow() : null;
      DescriptorNode node = new DescriptorNode(rule, children, shared);
      groups.computeIfAbsent(spec.key(), k -> new GroupBuilder()).add(domain, path, spec, node);
    }
    Map<String, KeyGroup> level = new LinkedHashMap<>();
    groups.forEach((key, builder) -> level.put(key, builder.build()));
    return Collections.unmodifiableMap(level);
  }

  private static Rule toRule(String domain, String path, DescriptorSpec spec) {
    Optional<RateLimitSpec> rateLimit = spec.rateLimit();
    return new Rule(
        domain,
        path,
        rateLimit.map(RateLimitSpec::kind).orElse(RuleKind.NO_RATE_LIMIT),
        rateLimit.map(RateLimitSpec::name).orElse(""),
        rateLimit.map(RateLimitSpec::replaces).orElse(Set.of()),
        spec.flags(),
        spec.origin(),
        spec.metadata());
  }

  /**
   * Finds the rule for one request descriptor.
   *
   * @return empty when the domain is unknown, the descriptor has no entries, or no branch of the
   *     tree takes all of its entries
   */
  public Optional<Match> match(String domain, List<Entry> entries) {
    return match(domain, entries, MatchTracer.NONE);
  }

  /**
   * {@link #match(String, List)}, telling {@code tracer} about every candidate tried, in order. The
   * same walk serves requests and explanations, so an explanation cannot drift from what requests
   * do.
   */
  public Optional<Match> match(String domain, List<Entry> entries, MatchTracer tracer) {
    Map<String, KeyGroup> top = domains.get(domain);
    if (top == null || entries.isEmpty()) {
      return Optional.empty();
    }
    return Optional.ofNullable(walk(top, entries, tracer));
  }

  /**
   * {@link #match(String, List)} for the request path: the same match, or null where that is empty.
   * No Optional, and a one-entry descriptor (the usual one) is matched without the walk's state, so
   * the usual match allocates only its {@link Match} (issue 16).
   */
  public Match matchOrNull(String domain, List<Entry> entries) {
    Map<String, KeyGroup> top = domains.get(domain);
    if (top == null || entries.isEmpty()) {
      return null;
    }
    return entries.size() == 1 ? matchOne(top, entries) : walk(top, entries, MatchTracer.NONE);
  }

  /** The backtracking walk from {@code top}; null when no branch takes every entry. */
  private static Match walk(Map<String, KeyGroup> top, List<Entry> entries, MatchTracer tracer) {
    Walk walk = new Walk(entries, new DescriptorNode[entries.size()], tracer);
    if (!search(top, 0, walk)) {
      return null;
    }
    DescriptorNode[] path = walk.path();
    return new Match(path[path.length - 1].rule, counterEntries(entries, path));
  }

  /**
   * What {@link #walk} finds for a one-entry descriptor: with nothing to descend to, it takes the
   * first candidate, in the walk's order, that ends a match.
   */
  private static Match matchOne(Map<String, KeyGroup> top, List<Entry> entries) {
    Entry entry = entries.get(0);
    KeyGroup group = top.get(entry.key());
    if (group == null) {
      return null;
    }
    DescriptorNode exact = group.exact().get(entry.value());
    if (exact != null && exact.endsMatch()) {
      return matchAt(exact, entries);
    }
    for (int candidate : group.index().candidates(entry.value())) {
      Wildcard wildcard = group.wildcards().get(candidate);
      if (wildcard.pattern().matches(entry.value()) && wildcard.node().endsMatch()) {
        return matchAt(wildcard.node(), entries);
      }
    }
    DescriptorNode keyOnly = group.keyOnly();
    return keyOnly != null && keyOnly.endsMatch() ? matchAt(keyOnly, entries) : null;
  }

  /** The match of a one-entry descriptor that lands on {@code node}, as {@link #walk} builds it. */
  private static Match matchAt(DescriptorNode node, List<Entry> entries) {
    if (node.sharedValue == null) {
      return new Match(node.rule, entries);
    }
    return new Match(node.rule, List.of(new Entry(entries.get(0).key(), node.sharedValue)));
  }

  /** One descriptor's search: its entries, the nodes chosen so far per level, the tracer. */
  private record Walk(List<Entry> entries, DescriptorNode[] path, MatchTracer tracer) {
    void trace(
        int depth,
        MatchStep.Candidate kind,
        String configured,
        DescriptorNode node,
        MatchStep.Outcome outcome) {
      // Steps are built only when tracing, so the request path allocates nothing for them.
      if (tracer.tracing()) {
        tracer.step(
            new MatchStep(
                depth,
                entries.get(depth),
                kind,
                configured,
                Optional.ofNullable(node).map(n -> n.rule),
                outcome));
      }
    }
  }

  private static boolean search(Map<String, KeyGroup> level, int depth, Walk walk) {
    Entry entry = walk.entries().get(depth);
    KeyGroup group = level.get(entry.key());
    if (group == null) {
      walk.trace(depth, MatchStep.Candidate.KEY_ONLY, "", null, MatchStep.Outcome.NO_KEY);
      return false;
    }
    DescriptorNode exact = group.exact().get(entry.value());
    if (exact == null) {
      walk.trace(
          depth, MatchStep.Candidate.EXACT, entry.value(), null, MatchStep.Outcome.NOT_CONFIGURED);
    } else if (tryCandidate(exact, MatchStep.Candidate.EXACT, entry.value(), depth, walk)) {
      return true;
    }
    // An explanation walks every wildcard so it can show each mismatch; a request only those the
    // index leaves, which are a superset of the ones that match, so both find the same rule.
    WildcardIndex index = group.index();
    int[] candidates = walk.tracer().tracing() ? index.all() : index.candidates(entry.value());
    for (int candidate : candidates) {
      Wildcard wildcard = group.wildcards().get(candidate);
      String pattern = wildcard.pattern().pattern();
      if (!wildcard.pattern().matches(entry.value())) {
        walk.trace(
            depth,
            MatchStep.Candidate.WILDCARD,
            pattern,
            wildcard.node(),
            MatchStep.Outcome.PATTERN_MISMATCH);
      } else if (tryCandidate(
          wildcard.node(), MatchStep.Candidate.WILDCARD, pattern, depth, walk)) {
        return true;
      }
    }
    if (group.keyOnly() == null) {
      walk.trace(depth, MatchStep.Candidate.KEY_ONLY, "", null, MatchStep.Outcome.NOT_CONFIGURED);
      return false;
    }
    return tryCandidate(group.keyOnly(), MatchStep.Candidate.KEY_ONLY, "", depth, walk);
  }

  private static boolean tryCandidate(
      DescriptorNode node, MatchStep.Candidate kind, String configured, int depth, Walk walk) {
    walk.path()[depth] = node;
    if (depth == walk.entries().size() - 1) {
      boolean ends = node.endsMatch();
      walk.trace(
          depth,
          kind,
          configured,
          node,
          ends ? MatchStep.Outcome.MATCHED : MatchStep.Outcome.INNER_WITHOUT_RATE_LIMIT);
      return ends;
    }
    if (node.children.isEmpty()) {
      walk.trace(depth, kind, configured, node, MatchStep.Outcome.NO_CHILDREN);
      return false;
    }
    walk.trace(depth, kind, configured, node, MatchStep.Outcome.DESCEND);
    if (search(node.children, depth + 1, walk)) {
      return true;
    }
    walk.trace(depth, kind, configured, node, MatchStep.Outcome.BACKTRACK);
    return false;
  }

  private static List<Entry> counterEntries(List<Entry> entries, DescriptorNode[] path) {
    List<Entry> shared = null;
    for (int i = 0; i < path.length; i++) {
      if (path[i].sharedValue != null) {
        if (shared == null) {
          shared = new ArrayList<>(entries);
        }
        shared.set(i, new Entry(entries.get(i).key(), path[i].sharedValue));
      }
    }
    return shared == null ? entries : List.copyOf(shared);
  }

  public boolean hasDomain(String domain) {
    return domains.containsKey(domain);
  }

  /** Domain names, sorted. */
  public Set<String> domains() {
    return domainNames;
  }

  /** Every rule with a rate_limit (counted or unlimited), in file order per domain. */
  public List<Rule> rules() {
    return rules;
  }

  private static final class GroupBuilder {
    private final Map<String, DescriptorNode> exact = new LinkedHashMap<>();
    private final List<Wildcard> wildcards = new ArrayList<>();
    private final Set<String> patterns = new HashSet<>();
    private DescriptorNode keyOnly;

    void add(String domain, String path, DescriptorSpec spec, DescriptorNode node) {
      boolean duplicate;
      if (spec.value().isEmpty()) {
        duplicate = keyOnly != null;
        keyOnly = node;
      } else if (spec.wildcard()) {
        String pattern = spec.value().get();
        duplicate = !patterns.add(pattern);
        wildcards.add(new Wildcard(new WildcardPattern(pattern), node));
      } else {
        duplicate = exact.putIfAbsent(spec.value().get(), node) != null;
      }
      if (duplicate) {
        throw new IllegalArgumentException(
            "duplicate descriptor '" + domain + "." + path + "' at " + spec.origin());
      }
    }

    KeyGroup build() {
      List<Wildcard> inOrder = List.copyOf(wildcards);
      WildcardIndex index = new WildcardIndex(inOrder.stream().map(Wildcard::pattern).toList());
      return new KeyGroup(Map.copyOf(exact), inOrder, index, keyOnly);
    }
  }
}
