package dev.sluice.rules;

import java.util.Objects;

/** One {@code key=value} pair of a request descriptor, e.g. {@code remote_address=10.0.0.1}. */
public record Entry(String key, String value) {
  public Entry {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }

  @Override
  public String toString() {
    return key + "=" + value;
  }
}
