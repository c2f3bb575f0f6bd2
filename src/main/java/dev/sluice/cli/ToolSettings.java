package dev.sluice.cli;

import dev.sluice.bench.RequestTemplate;
import dev.sluice.bench.Target;
import dev.sluice.config.Setting;
import dev.sluice.config.SettingText;
import dev.sluice.rules.Entry;
import java.nio.file.Path;
import java.util.List;

/**
 * The own settings of {@code check}, {@code explain}, {@code replay} and {@code call} (the rule
 * settings they share are in {@code RulesSettings}); documented in {@code docs/tools.md} and {@code
 * docs/settings.md}.
 */
final class ToolSettings {
  static final Setting<String> CHECK_DOMAIN =
      Setting.unsetText("--domain", "SLUICE_CHECK_DOMAIN", "Domain of the --bucket maps");

  static final Setting<List<String>> CHECK_BUCKET =
      Setting.groups(
          "--bucket",
          "SLUICE_CHECK_BUCKET",
          "An RLQS BucketId map, k=v[,k=v...]: say which rule it reaches and what its Envoys are"
              + " assigned; repeat for more (or separate by ';')");

  static final Setting<String> EXPLAIN_DOMAIN =
      Setting.unsetText("--domain", "SLUICE_EXPLAIN_DOMAIN", "Request domain").required();

  static final Setting<List<String>> EXPLAIN_DESCRIPTOR =
      Setting.groups(
          "--descriptor",
          "SLUICE_EXPLAIN_DESCRIPTOR",
          "One descriptor, entries in order: k=v[,k=v...]; repeat for more descriptors (or"
              + " separate by ';')");

  static final Setting<List<String>> EXPLAIN_BUCKET =
      Setting.groups(
          "--bucket",
          "SLUICE_EXPLAIN_BUCKET",
          "An RLQS BucketId map, k=v[,k=v...]: the rule it reaches and what its Envoys are"
              + " assigned; repeat for more (or separate by ';')");

  static final Setting<Long> EXPLAIN_HITS_ADDEND =
      Setting.longValue(
          "--hits-addend",
          "SLUICE_EXPLAIN_HITS_ADDEND",
          "0",
          "Request hits_addend; 0 = unset (counts 1)");

  static final Setting<Boolean> EXPLAIN_JSON =
      Setting.bool(
          "--json", "SLUICE_EXPLAIN_JSON", false, "Print sluice.admin.v1.ExplainResponse as JSON");

  static final Setting<Path> REPLAY_INPUT =
      Setting.path("--input", "SLUICE_REPLAY_INPUT", "Capture file, JSON lines").required();

  static final Setting<Path> REPLAY_COMPARE_CONFIG =
      Setting.path(
          "--compare-config",
          "SLUICE_REPLAY_COMPARE_CONFIG",
          "A second rule directory or file to compare with");

  static final Setting<String> REPLAY_SPEED =
      Setting.text(
          "--speed",
          "SLUICE_REPLAY_SPEED",
          "max",
          "max (as fast as possible) or 1x (the capture's own pace)");

  static final Setting<Integer> REPLAY_INSTANCES =
      Setting.integer(
          "--instances",
          "SLUICE_REPLAY_INSTANCES",
          "1",
          "Sluice instances sharing the store, requests round-robin");

  static final Setting<Integer> REPLAY_MAX_LINE_BYTES =
      Setting.integer(
          "--max-line-bytes",
          "SLUICE_REPLAY_MAX_LINE_BYTES",
          "1048576",
          "Longest capture line read, bytes; a longer line fails the replay as FILE:LINE");

  static final Setting<Target> CALL_TARGET =
      Setting.of(
          "--target",
          "SLUICE_CALL_TARGET",
          "127.0.0.1:8081",
          Target::parse,
          "RLS server HOST:PORT");

  static final Setting<String> CALL_DOMAIN =
      Setting.unsetText("--domain", "SLUICE_CALL_DOMAIN", "Request domain").required();

  static final Setting<List<Entry>> CALL_DESCRIPTOR =
      Setting.items(
              "--descriptor",
              "SLUICE_CALL_DESCRIPTOR",
              RequestTemplate::parseEntry,
              "Entries of the one descriptor, in order (repeatable or comma-separated)")
          .labelled("KEY=VALUE")
          .required();

  static final Setting<Integer> CALL_HITS_ADDEND =
      Setting.of(
          "--hits-addend",
          "SLUICE_CALL_HITS_ADDEND",
          "0",
          SettingText::integer,
          "Request hits_addend; 0 = unset (counts 1)");

  static final List<Setting<?>> CHECK = List.of(CHECK_DOMAIN, CHECK_BUCKET);

  static final List<Setting<?>> EXPLAIN =
      List.of(
          EXPLAIN_DOMAIN, EXPLAIN_DESCRIPTOR, EXPLAIN_BUCKET, EXPLAIN_HITS_ADDEND, EXPLAIN_JSON);

  static final List<Setting<?>> REPLAY =
      List.of(
          REPLAY_INPUT,
          REPLAY_COMPARE_CONFIG,
          REPLAY_SPEED,
          REPLAY_INSTANCES,
          REPLAY_MAX_LINE_BYTES);

  static final List<Setting<?>> CALL =
      List.of(CALL_TARGET, CALL_DOMAIN, CALL_DESCRIPTOR, CALL_HITS_ADDEND);

  private ToolSettings() {}
}
