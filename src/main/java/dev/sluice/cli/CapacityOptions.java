package dev.sluice.cli;

import dev.sluice.config.RequestLimits;
import picocli.CommandLine.Option;

/**
 * How large one request may be and how many counters the memory store keeps: the bounds that stop
 * one caller from exhausting memory or Redis's integers (issue 11). Defaults in {@link
 * RequestLimits#defaults()} and {@code StoreConfig.DEFAULT_MEMORY_MAX_COUNTERS}.
 */
final class CapacityOptions {
  @Option(
      names = "--max-descriptors",
      defaultValue = "${env:SLUICE_MAX_DESCRIPTORS:-64}",
      description =
          "Descriptors per request; more is INVALID_ARGUMENT (env SLUICE_MAX_DESCRIPTORS, default ${DEFAULT-VALUE}).")
  int maxDescriptors;

  @Option(
      names = "--max-descriptor-entries",
      defaultValue = "${env:SLUICE_MAX_DESCRIPTOR_ENTRIES:-32}",
      description =
          "Entries per descriptor; more is INVALID_ARGUMENT (env SLUICE_MAX_DESCRIPTOR_ENTRIES, default ${DEFAULT-VALUE}).")
  int maxEntries;

  @Option(
      names = "--max-domain-bytes",
      defaultValue = "${env:SLUICE_MAX_DOMAIN_BYTES:-256}",
      description =
          "UTF-8 bytes of a request's domain (env SLUICE_MAX_DOMAIN_BYTES, default ${DEFAULT-VALUE}).")
  int maxDomainBytes;

  @Option(
      names = "--max-key-bytes",
      defaultValue = "${env:SLUICE_MAX_KEY_BYTES:-256}",
      description =
          "UTF-8 bytes of a descriptor entry's key (env SLUICE_MAX_KEY_BYTES, default ${DEFAULT-VALUE}).")
  int maxKeyBytes;

  @Option(
      names = "--max-value-bytes",
      defaultValue = "${env:SLUICE_MAX_VALUE_BYTES:-8192}",
      description =
          "UTF-8 bytes of a descriptor entry's value (env SLUICE_MAX_VALUE_BYTES, default ${DEFAULT-VALUE}).")
  int maxValueBytes;

  @Option(
      names = "--memory-max-counters",
      defaultValue = "${env:SLUICE_MEMORY_MAX_COUNTERS:-1000000}",
      description =
          "Counters the memory store keeps; when full the soonest-expiring go first (env SLUICE_MEMORY_MAX_COUNTERS, default ${DEFAULT-VALUE}).")
  long memoryMaxCounters;

  RequestLimits requestLimits() {
    return new RequestLimits(
        maxDescriptors, maxEntries, maxDomainBytes, maxKeyBytes, maxValueBytes);
  }
}
