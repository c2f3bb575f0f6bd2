package dev.sluice.config;

import java.util.List;

/** How large one request may be and how many counters the memory store keeps. */
public final class CapacitySettings {
  public static final Setting<Integer> MAX_DESCRIPTORS =
      Setting.integer(
          "--max-descriptors",
          "SLUICE_MAX_DESCRIPTORS",
          "64",
          "Descriptors per request; more is INVALID_ARGUMENT");

  public static final Setting<Integer> MAX_DESCRIPTOR_ENTRIES =
      Setting.integer(
          "--max-descriptor-entries",
          "SLUICE_MAX_DESCRIPTOR_ENTRIES",
          "32",
          "Entries per descriptor; more is INVALID_ARGUMENT");

  public static final Setting<Integer> MAX_DOMAIN_BYTES =
      Setting.integer(
          "--max-domain-bytes",
          "SLUICE_MAX_DOMAIN_BYTES",
          "256",
          "UTF-8 bytes of a request's domain");

  public static final Setting<Integer> MAX_KEY_BYTES =
      Setting.integer(
          "--max-key-bytes",
          "SLUICE_MAX_KEY_BYTES",
          "256",
          "UTF-8 bytes of a descriptor entry's key");

  public static final Setting<Integer> MAX_VALUE_BYTES =
      Setting.integer(
          "--max-value-bytes",
          "SLUICE_MAX_VALUE_BYTES",
          "8192",
          "UTF-8 bytes of a descriptor entry's value");

  public static final Setting<Long> MEMORY_MAX_COUNTERS =
      Setting.longValue(
          "--memory-max-counters",
          "SLUICE_MEMORY_MAX_COUNTERS",
          "1000000",
          "Counters the memory store keeps; when full the soonest-expiring go first");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          MAX_DESCRIPTORS,
          MAX_DESCRIPTOR_ENTRIES,
          MAX_DOMAIN_BYTES,
          MAX_KEY_BYTES,
          MAX_VALUE_BYTES,
          MEMORY_MAX_COUNTERS);

  private CapacitySettings() {}
}
