package dev.sluice.cli;

import dev.sluice.config.CapacitySettings;
import dev.sluice.config.RequestLimits;
import dev.sluice.config.SettingValues;

/**
 * How large one request may be and how many counters the memory store keeps: the bounds that stop
 * one caller from exhausting memory or Redis's integers (issue 11). Defaults in {@link
 * RequestLimits#defaults()} and {@code StoreConfig.DEFAULT_MEMORY_MAX_COUNTERS}.
 */
final class CapacityOptions {
  private final SettingValues values;

  CapacityOptions(SettingValues values) {
    this.values = values;
  }

  RequestLimits requestLimits() {
    return new RequestLimits(
        values.get(CapacitySettings.MAX_DESCRIPTORS),
        values.get(CapacitySettings.MAX_DESCRIPTOR_ENTRIES),
        values.get(CapacitySettings.MAX_DOMAIN_BYTES),
        values.get(CapacitySettings.MAX_KEY_BYTES),
        values.get(CapacitySettings.MAX_VALUE_BYTES));
  }
}
