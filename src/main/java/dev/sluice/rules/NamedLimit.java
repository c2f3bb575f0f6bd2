package dev.sluice.rules;

import java.util.Objects;

/**
 * One item of a {@code rate_limits} list: its limit and its own {@code name} ({@code ""} when
 * unnamed), which is reported as {@code current_limit.name} and is what {@code replaces} targets.
 */
public record NamedLimit(String name, Limit limit) {
  public NamedLimit {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(limit, "limit");
  }
}
