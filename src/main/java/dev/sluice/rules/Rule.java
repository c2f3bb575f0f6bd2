package dev.sluice.rules;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One node of a domain's descriptor tree, as a request sees it when its last entry lands there.
 *
 * @param kind counted (one limit or several), unlimited, or a node without {@code rate_limit} (see
 *     {@link RuleKind})
 * @param path the rule's place in its domain, joined like the reference's stats key: {@code
 *     key_value} or {@code key} per level, levels joined by {@code .} (e.g. {@code
 *     path_/api.method}). Bounded by the configuration, so it is safe as a metric label.
 * @param name the {@code rate_limit.name}, or {@code ""} when unnamed; always {@code ""} for {@link
 *     RuleKind.Several}, whose limits carry their own names
 * @param replaces names of rules (or of limits in a {@code rate_limits} list) this one suppresses
 *     when both match one request
 * @param origin where the rule was defined, {@code file:line}, for operators
 * @param metadata the descriptor's free-form {@code metadata}: unmodifiable maps (string keys),
 *     lists, strings, booleans, {@code Double}s and {@code null}; empty when none. Returned in the
 *     response's dynamic metadata while the rule's descriptor is not over its limit.
 */
public record Rule(
    String domain,
    String path,
    RuleKind kind,
    String name,
    Set<String> replaces,
    RuleFlags flags,
    String origin,
    Map<String, Object> metadata) {

  public Rule {
    Objects.requireNonNull(domain, "domain");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    replaces = Set.copyOf(replaces);
    Objects.requireNonNull(flags, "flags");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(metadata, "metadata");
  }

  /** Without metadata. */
  public Rule(
      String domain,
      String path,
      RuleKind kind,
      String name,
      Set<String> replaces,
      RuleFlags flags,
      String origin) {
    this(domain, path, kind, name, replaces, flags, origin, Map.of());
  }

  /** True when hits on this rule are counted in the store (one limit or several). */
  public boolean counted() {
    return kind instanceof RuleKind.Counted || kind instanceof RuleKind.Several;
  }

  /**
   * The limit of a rule with exactly one limit ({@code rate_limit}); empty for the other kinds,
   * {@link RuleKind.Several} included (see {@link #limits}). A view of {@link #kind}.
   */
  public Optional<Limit> limit() {
    return kind instanceof RuleKind.Counted counted
        ? Optional.of(counted.limit())
        : Optional.empty();
  }

  /**
   * Every limit of a counted rule in file order, each with its name: one for {@code rate_limit},
   * the list for {@code rate_limits}; empty for the other kinds. A view of {@link #kind}.
   */
  public List<NamedLimit> limits() {
    if (kind instanceof RuleKind.Counted counted) {
      return List.of(new NamedLimit(name, counted.limit()));
    }
    return kind instanceof RuleKind.Several several ? several.limits() : List.of();
  }

  /** True for an {@code unlimited: true} rule. A view of {@link #kind}. */
  public boolean unlimited() {
    return kind instanceof RuleKind.Unlimited;
  }

  public boolean shadowMode() {
    return flags.shadowMode();
  }

  /**
   * From the domain and path alone, which tell the rules of one set apart (equal rules have equal
   * ones, so {@link #equals} still agrees): the limiter looks a rule up on every request, and the
   * record's own hash walked its metadata and limits each time.
   */
  @Override
  public int hashCode() {
    return 31 * domain.hashCode() + path.hashCode();
  }

  /** {@code domain.path}, unique within a rule set. */
  public String id() {
    return domain + "." + path;
  }
}
