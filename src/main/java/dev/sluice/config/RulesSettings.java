package dev.sluice.config;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import java.nio.file.Path;
import java.util.List;

/**
 * Where rules come from and how rule files are read; shared by serve, check, explain and replay.
 */
public final class RulesSettings {
  public static final Setting<Path> CONFIG =
      Setting.of("--config", "SLUICE_CONFIG", "config/rules", Path::of, "Rule directory or file");

  public static final Setting<Algorithm> DEFAULT_ALGORITHM =
      Setting.of(
          "--default-algorithm",
          "SLUICE_DEFAULT_ALGORITHM",
          "fixed_window",
          SettingText::algorithm,
          "Algorithm of rules and overrides that name none: " + Algorithm.CONFIG_NAMES);

  public static final Setting<Consistency> DEFAULT_CONSISTENCY =
      Setting.of(
          "--default-consistency",
          "SLUICE_DEFAULT_CONSISTENCY",
          "exact",
          SettingText::consistency,
          "Consistency of rules that name none: " + Consistency.CONFIG_NAMES);

  public static final Setting<Boolean> ALLOW_EMPTY_RULES =
      Setting.bool(
          "--allow-empty-rules",
          "SLUICE_ALLOW_EMPTY_RULES",
          false,
          "Accept a rule directory with no rules (at start, on reload and in check); without it an emptied directory keeps the old rules, since zero rules limit nothing");

  public static final Setting<Boolean> MERGE_DOMAINS =
      Setting.bool(
          "--merge-domains",
          "SLUICE_MERGE_DOMAINS",
          false,
          "Several files may add top-level descriptors to one domain");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(CONFIG, DEFAULT_ALGORITHM, DEFAULT_CONSISTENCY, ALLOW_EMPTY_RULES, MERGE_DOMAINS);

  private RulesSettings() {}
}
