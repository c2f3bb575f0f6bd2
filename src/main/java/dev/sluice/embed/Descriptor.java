package dev.sluice.embed;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One descriptor of a request: an ordered list of {@code key=value} entries, matched against the
 * rules exactly as a server matches an Envoy descriptor, e.g. {@code Descriptor.of("user",
 * "alice")} or {@code Descriptor.of("path", "/login").and("remote_address", ip)}.
 *
 * @param entries at least one, in the order the rules nest them
 */
public record Descriptor(List<Entry> entries) {
  /**
   * One {@code key=value} pair.
   *
   * @throws IllegalArgumentException for an empty key
   */
  public record Entry(String key, String value) {
    public Entry {
      Objects.requireNonNull(key, "descriptor key");
      Objects.requireNonNull(value, "descriptor value");
      if (key.isEmpty()) {
        throw new IllegalArgumentException("descriptor key must not be empty");
      }
    }
  }

  /**
   * @throws IllegalArgumentException for no entries
   */
  public Descriptor {
    entries = List.copyOf(entries);
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("a descriptor needs at least one entry");
    }
  }

  /** A descriptor of one entry. */
  public static Descriptor of(String key, String value) {
    return new Descriptor(List.of(new Entry(key, value)));
  }

  /** This descriptor with {@code key=value} appended. */
  public Descriptor and(String key, String value) {
    List<Entry> longer = new ArrayList<>(entries);
    longer.add(new Entry(key, value));
    return new Descriptor(longer);
  }
}
