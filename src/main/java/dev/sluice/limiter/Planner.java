package dev.sluice.limiter;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Match;
import dev.sluice.rules.NamedLimit;
import dev.sluice.rules.Rule;
import dev.sluice.rules.RuleFlags;
import dev.sluice.rules.RuleKind;
import dev.sluice.rules.RuleSet;
import dev.sluice.store.Charge;
import dev.sluice.store.CounterKey;
import dev.sluice.store.Hit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a request into one {@link Plan} per descriptor against one rule snapshot: match, drop rules
 * named by another matched rule's {@code replaces}, and build the counter key and hit. {@link
 * #counterOf} finds a counter for operators with the same code, so what they inspect or reset is
 * exactly what requests count.
 */
public final class Planner {
  private final Algorithm overrideAlgorithm;
  private final boolean chargeDenied;
  private final Plan.RequestVotes votes;
  private final RuleParts.Cache rules = new RuleParts.Cache();

  /**
   * @param chargeDenied {@code --charge-denied}: whether refused hits are charged, for rules that
   *     do not say and for overrides
   * @param votes what the service settings alone do to every descriptor's vote: each plan's group
   *     is built with it, so a request whose votes are the same charges the group as it is
   */
  Planner(Algorithm overrideAlgorithm, boolean chargeDenied, Plan.RequestVotes votes) {
    this.overrideAlgorithm = overrideAlgorithm;
    this.chargeDenied = chargeDenied;
    this.votes = votes;
  }

  /** A counted rule and the counter a descriptor's hits go to. */
  public record RuleCounter(Rule rule, Hit hit) {
    public RuleCounter {
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(hit, "hit");
    }
  }

  /**
   * The counter the hits of a descriptor with {@code entries} in {@code domain} go to, exactly as a
   * request finds it (same matching, same key), with 0 hits; empty when no counted rule matches.
   * For operators; a descriptor's {@code replaces} relations with others of a request do not apply.
   */
  public static Optional<RuleCounter> counterOf(
      RuleSet snapshot, String domain, List<Entry> entries) {
    return snapshot
        .match(domain, entries)
        .flatMap(
            match ->
                match.rule().kind() instanceof RuleKind.Counted counted
                    ? Optional.of(
                        new RuleCounter(match.rule(), hitOf(domain, match, counted.limit(), 0)))
                    : Optional.empty());
  }

  /**
   * @return one plan per descriptor, in request order
   */
  List<Plan> plan(RuleSet snapshot, RateLimitCall call) {
    List<DescriptorRequest> descriptors = call.descriptors();
    if (descriptors.size() == 1) {
      return List.of(planAlone(snapshot, call));
    }
    // Null for no match: an array of Optionals kept every match's Optional from being elided.
    Match[] matches = new Match[descriptors.size()];
    for (int i = 0; i < matches.length; i++) {
      matches[i] = matchOf(snapshot, call.domain(), descriptors.get(i));
    }
    Set<String> replaced = replacedNames(matches);
    Plan[] plans = new Plan[matches.length];
    for (int i = 0; i < matches.length; i++) {
      plans[i] = planOf(snapshot, call, descriptors.get(i), matches[i], replaced);
    }
    return Arrays.asList(plans);
  }

  /**
   * The plan of a request of one descriptor, the usual request: its match alone, without an array;
   * only its own rule can replace.
   */
  private Plan planAlone(RuleSet snapshot, RateLimitCall call) {
    DescriptorRequest descriptor = call.descriptors().get(0);
    Match match = matchOf(snapshot, call.domain(), descriptor);
    Set<String> replaced = match == null ? Set.of() : match.rule().replaces();
    return planOf(snapshot, call, descriptor, match, replaced);
  }

  /** The rule {@code descriptor} matched, or null for none or an override. */
  private static Match matchOf(RuleSet snapshot, String domain, DescriptorRequest descriptor) {
    // An override bypasses the rules entirely: its descriptor's rule must not drop others.
    return descriptor.override().isPresent()
        ? null
        : snapshot.matchOrNull(domain, descriptor.entries());
  }

  /**
   * @param match null when no rule matched (or the descriptor carries an override)
   */
  private Plan planOf(
      RuleSet snapshot,
      RateLimitCall call,
      DescriptorRequest descriptor,
      Match match,
      Set<String> replaced) {
    long hits = call.hitsFor(descriptor);
    return descriptor.override().isPresent()
        ? planOverride(call.domain(), descriptor, hits)
        : planRule(snapshot, call.domain(), descriptor, match, replaced, hits);
  }

  private static Set<String> replacedNames(Match[] matches) {
    Set<String> names = null;
    for (Match match : matches) {
      if (match != null && !match.rule().replaces().isEmpty()) {
        if (names == null) {
          names = new HashSet<>();
        }
        names.addAll(match.rule().replaces());
      }
    }
    return names == null ? Set.of() : names;
  }

  /** A client's override: one limit in place of all the rule's, whatever kind the rule is. */
  private Plan planOverride(String domain, DescriptorRequest descriptor, long hits) {
    LimitOverride override = descriptor.override().orElseThrow();
    Limit limit = Limit.of(override.requestsPerUnit(), override.unit(), overrideAlgorithm);
    Hit hit = new Hit(CounterKey.of(domain, descriptor.entries(), limit), limit, hits);
    Plan.Counter counter =
        new Plan.Counter(Plan.Reported.of(new CurrentLimit(limit, "")), Plan.MetricLabel.OVERRIDE);
    Charge.Policy policy = chargeDenied ? Charge.Policy.EACH : Charge.Policy.WITH_REQUEST;
    return new Plan.Counted(
        group(hit, policy, RuleFlags.NONE), List.of(counter), RuleFlags.NONE, descriptor.entries());
  }

  /**
   * @param match null when no rule matched
   */
  private Plan planRule(
      RuleSet snapshot,
      String domain,
      DescriptorRequest descriptor,
      Match match,
      Set<String> replaced,
      long hits) {
    if (match == null) {
      return Plan.NOT_LIMITED;
    }
    Rule rule = match.rule();
    if (!rule.name().isEmpty() && replaced.contains(rule.name())) {
      return Plan.NOT_LIMITED;
    }
    boolean charges = rule.flags().chargesDenied(chargeDenied);
    if (rule.kind() instanceof RuleKind.Counted counted) {
      Hit hit = hitOf(domain, match, counted.limit(), hits);
      RuleParts parts = rules.of(snapshot, rule, counted.limit());
      List<Plan.Counter> counters =
          parts.counters() != null
              ? parts.counters()
              : List.of(
                  new Plan.Counter(parts.reported(), metricLabel(rule.path(), rule, descriptor)));
      Charge.Policy policy = charges ? Charge.Policy.EACH : Charge.Policy.WITH_REQUEST;
      return new Plan.Counted(
          group(hit, policy, rule.flags()), counters, rule.flags(), descriptor.entries());
    }
    if (rule.kind() instanceof RuleKind.Several several) {
      return planSeveral(domain, descriptor, match, several, replaced, hits, charges);
    }
    return rule.kind() instanceof RuleKind.Unlimited ? Plan.UNLIMITED : Plan.NOT_LIMITED;
  }

  /**
   * A {@code rate_limits} list: one counter per limit that no matched rule replaces, every key
   * extending the descriptor's tag; not limited when all are replaced.
   */
  private Plan planSeveral(
      String domain,
      DescriptorRequest descriptor,
      Match match,
      RuleKind.Several several,
      Set<String> replaced,
      long hits,
      boolean charges) {
    Rule rule = match.rule();
    String tag = CounterKey.group(domain, match.counterEntries());
    List<Hit> counted = new ArrayList<>(several.limits().size());
    List<Plan.Counter> counters = new ArrayList<>(several.limits().size());
    for (NamedLimit named : several.limits()) {
      if (!named.name().isEmpty() && replaced.contains(named.name())) {
        continue;
      }
      Limit limit = named.limit();
      counted.add(new Hit(CounterKey.ofSeveral(tag, limit), limit, hits));
      counters.add(
          new Plan.Counter(
              Plan.Reported.of(new CurrentLimit(limit, named.name(), rule.metadata())),
              metricLabel(limitLabel(rule, named, several), rule, descriptor)));
    }
    if (counters.isEmpty()) {
      return Plan.NOT_LIMITED;
    }
    Charge.Policy policy = charges ? Charge.Policy.TOGETHER : Charge.Policy.WITH_REQUEST;
    return new Plan.Counted(
        group(tag, counted, policy, rule.flags()), counters, rule.flags(), descriptor.entries());
  }

  /** The store's group of a counted descriptor, with the vote the settings alone give it. */
  private Charge.Group group(String tag, List<Hit> hits, Charge.Policy policy, RuleFlags flags) {
    return Charge.Group.of(tag, hits, policy, Plan.Counted.vote(flags, votes));
  }

  /** {@link #group} of a descriptor with one limit: an {@link Charge.Each} holds its hit alone. */
  private Charge.Group group(Hit hit, Charge.Policy policy, RuleFlags flags) {
    return policy == Charge.Policy.EACH
        ? new Charge.Each(hit, Plan.Counted.vote(flags, votes))
        : group(hit.key(), List.of(hit), policy, flags);
  }

  /**
   * The metric series of one limit of a list: its name, else the rule's path and the window ({@code
   * remote_address:second}, {@code user:15_minutes}), with the algorithm too when the list has
   * another limit of that window.
   */
  private static String limitLabel(Rule rule, NamedLimit named, RuleKind.Several several) {
    if (!named.name().isEmpty()) {
      return named.name();
    }
    Limit limit = named.limit();
    String window = limit.window().label();
    String label = rule.path() + ":" + window;
    boolean sameWindow =
        several.limits().stream()
                .filter(other -> other.limit().window().label().equals(window))
                .count()
            > 1;
    return sameWindow ? label + ":" + limit.algorithm().configName() : label;
  }

  private static Hit hitOf(String domain, Match match, Limit limit, long hits) {
    return new Hit(CounterKey.of(domain, match.counterEntries(), limit), limit, hits);
  }

  private static Plan.MetricLabel metricLabel(
      String label, Rule rule, DescriptorRequest descriptor) {
    boolean detailed = rule.flags().detailedMetric() || rule.flags().valueToMetric();
    return new Plan.MetricLabel(
        label, detailed ? Optional.of(detailedPath(descriptor.entries())) : Optional.empty());
  }

  /** The reference's detailed stats key: {@code key_value} per level, joined with dots. */
  private static String detailedPath(List<Entry> entries) {
    StringBuilder path = new StringBuilder();
    for (Entry entry : entries) {
      if (path.length() > 0) {
        path.append('.');
      }
      path.append(entry.key()).append('_').append(entry.value());
    }
    return path.toString();
  }
}
