package dev.sluice.rules;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code rate_limit} block of a descriptor, already validated by the loader.
 *
 * @param limit present for a counted rule, empty when {@code unlimited}
 * @param name {@code ""} when unnamed
 */
public record RateLimitSpec(
    Optional<Limit> limit, boolean unlimited, String name, Set<String> replaces) {

  public RateLimitSpec {
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(name, "name");
    replaces = Set.copyOf(replaces);
    if (unlimited == limit.isPresent()) {
      throw new IllegalArgumentException("a rate_limit is either unlimited or has a limit");
    }
  }

  public static RateLimitSpec limited(Limit limit) {
    return new RateLimitSpec(Optional.of(limit), false, "", Set.of());
  }

  public static RateLimitSpec unlimitedSpec() {
    return new RateLimitSpec(Optional.empty(), true, "", Set.of());
  }

  public RateLimitSpec named(String newName) {
    return new RateLimitSpec(limit, unlimited, newName, replaces);
  }

  public RateLimitSpec replacing(Set<String> names) {
    return new RateLimitSpec(limit, unlimited, name, names);
  }
}
