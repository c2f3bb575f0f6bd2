package dev.sluice.rules;

import java.util.Objects;
import java.util.Set;

/**
 * The {@code rate_limit} block (or {@code rate_limits} list) of a descriptor, already validated by
 * the loader.
 *
 * @param kind counted, several or unlimited; never {@link RuleKind.NoRateLimit}, which is the
 *     absence of this block
 * @param name {@code ""} when unnamed, and always for {@link RuleKind.Several}
 * @param replaces for a list, the union of its items' {@code replaces}
 */
public record RateLimitSpec(RuleKind kind, String name, Set<String> replaces) {

  public RateLimitSpec {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    replaces = Set.copyOf(replaces);
    if (kind instanceof RuleKind.NoRateLimit) {
      throw new IllegalArgumentException("a rate_limit is either unlimited or has a limit");
    }
  }

  public static RateLimitSpec limited(Limit limit) {
    return new RateLimitSpec(new RuleKind.Counted(limit), "", Set.of());
  }

  /** A {@code rate_limits} list. */
  public static RateLimitSpec several(java.util.List<NamedLimit> limits, Set<String> replaces) {
    return new RateLimitSpec(new RuleKind.Several(limits), "", replaces);
  }

  public static RateLimitSpec unlimitedSpec() {
    return new RateLimitSpec(RuleKind.UNLIMITED, "", Set.of());
  }

  public RateLimitSpec named(String newName) {
    return new RateLimitSpec(kind, newName, replaces);
  }

  public RateLimitSpec replacing(Set<String> names) {
    return new RateLimitSpec(kind, name, names);
  }
}
