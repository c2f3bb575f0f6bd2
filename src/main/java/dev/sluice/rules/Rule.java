package dev.sluice.rules;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One node of a domain's descriptor tree, as a request sees it when its last entry lands there.
 *
 * <p>Exactly one of three kinds: counted ({@code limit} present), {@code unlimited} (never counted,
 * answers remaining 4294967295), or a node without {@code rate_limit} (answers OK, counts nothing;
 * the reference calls such leaves a whitelist).
 *
 * @param path the rule's place in its domain, joined like the reference's stats key: {@code
 *     key_value} or {@code key} per level, levels joined by {@code .} (e.g. {@code
 *     path_/api.method}). Bounded by the configuration, so it is safe as a metric label.
 * @param name the {@code rate_limit.name}, or {@code ""} when unnamed
 * @param replaces names of rules this one suppresses when both match one request
 * @param origin where the rule was defined, {@code file:line}, for operators
 */
public record Rule(
    String domain,
    String path,
    Optional<Limit> limit,
    boolean unlimited,
    String name,
    Set<String> replaces,
    RuleFlags flags,
    String origin) {

  public Rule {
    Objects.requireNonNull(domain, "domain");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(name, "name");
    replaces = Set.copyOf(replaces);
    Objects.requireNonNull(flags, "flags");
    Objects.requireNonNull(origin, "origin");
    if (unlimited && limit.isPresent()) {
      throw new IllegalArgumentException("an unlimited rule has no limit: " + domain + "." + path);
    }
  }

  /** True when hits on this rule are counted in the store. */
  public boolean counted() {
    return limit.isPresent();
  }

  public boolean shadowMode() {
    return flags.shadowMode();
  }

  /** {@code domain.path}, unique within a rule set. */
  public String id() {
    return domain + "." + path;
  }
}
