package dev.sluice.config;

import java.time.Duration;
import java.util.List;

/** Which store serve counts in and how often it re-reads rule files. */
public final class ServeSettings {
  public static final Setting<Duration> RELOAD_INTERVAL =
      Setting.duration(
          "--reload-interval",
          "SLUICE_RELOAD_INTERVAL",
          "1s",
          "How often rule files are checked for changes");

  public static final Setting<StoreKind> STORE =
      Setting.of("--store", "SLUICE_STORE", "memory", StoreKind::parse, "memory or redis");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL = List.of(RELOAD_INTERVAL, STORE);

  private ServeSettings() {}
}
