package dev.sluice.config;

import java.util.Locale;

/** Where counters live. */
public enum StoreKind {
  /** In this process: one instance, no Redis. */
  MEMORY,
  /** Shared by every instance through Redis. */
  REDIS;

  /** Parses {@code memory} or {@code redis}, case-insensitive. */
  public static StoreKind parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown store '" + name + "'; expected memory or redis");
    }
  }
}
