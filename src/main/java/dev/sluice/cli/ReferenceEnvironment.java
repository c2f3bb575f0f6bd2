package dev.sluice.cli;

import dev.sluice.config.Setting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * envoyproxy/ratelimit's environment variables, read as they are: each one is translated into the
 * {@code SLUICE_*} variable of the same meaning, and this overlay answers an option's default when
 * the real environment lacks that {@code SLUICE_*} variable. So the precedence is flag, {@code
 * SLUICE_*}, reference name, default. A reference variable Sluice does not implement becomes one
 * warning line ({@link #warnings}); one whose value Sluice cannot honour (memcache, unix sockets)
 * is an error ({@link #errors}). Immutable once built.
 *
 * <p>The translation is split by area: {@link ReferenceServerVariables} (ports, TLS, rules,
 * behaviour), {@link ReferenceRedisVariables}, {@link ReferenceObservabilityVariables} (logs,
 * metrics, xDS, tracing) and {@link ReferenceUnsupported}, over the shared moves of {@link
 * ReferenceTranslation}.
 */
public final class ReferenceEnvironment implements IDefaultValueProvider {
  /**
   * Bytes one local over-limit cache entry takes, to turn {@code LOCAL_CACHE_SIZE_IN_BYTES} into
   * entries: a Caffeine node with expiry (~100 bytes), the counter key string (~100) and the cached
   * state (~50), rounded up.
   */
  static final long CACHE_ENTRY_BYTES = 256;

  private final Map<String, String> env;
  private final Map<String, String> overlay;
  private final Map<String, String> sourceOf;
  private final List<String> warnings;
  private final List<String> errors;

  private ReferenceEnvironment(Map<String, String> env) {
    this.env = Map.copyOf(env);
    ReferenceTranslation translation = new ReferenceTranslation(this.env);
    translate(translation);
    this.overlay = translation.overlay;
    this.sourceOf = translation.sourceOf;
    this.warnings = translation.warnings;
    this.errors = translation.errors;
  }

  /** Translates the reference variables found in {@code env} (usually {@code System.getenv()}). */
  public static ReferenceEnvironment of(Map<String, String> env) {
    return new ReferenceEnvironment(env);
  }

  /** No reference variables: every default comes from the declarations and SLUICE_* twins. */
  static ReferenceEnvironment none() {
    return new ReferenceEnvironment(Map.of());
  }

  /** The {@code SLUICE_*} values this overlay adds, each absent from the real environment. */
  public Map<String, String> sluiceView() {
    return Map.copyOf(overlay);
  }

  /** Values that cannot be honoured, each {@code NAME=value: reason}; serve refuses to start. */
  List<String> errors() {
    return List.copyOf(errors);
  }

  /**
   * Reference variables that are set but not implemented, with what to use instead, including those
   * whose {@code SLUICE_*} twin no option of {@code command} reads yet.
   */
  List<String> warnings(CommandSpec command) {
    Set<String> read = new TreeSet<>();
    for (OptionSpec option : command.options()) {
      envName(option).ifPresent(read::add);
    }
    read.add("SLUICE_LOG_LEVEL"); // read by logback.xml
    read.add("SLUICE_LOG_FORMAT"); // read by Main before logging starts
    List<String> all = new ArrayList<>(warnings);
    overlay.keySet().stream()
        .filter(name -> !read.contains(name))
        .forEach(name -> all.add(sourceOf.get(name) + ": not supported yet (no " + name + ")"));
    return all;
  }

  /** The one startup line naming every reference variable Sluice does not honour, if any. */
  Optional<String> warningLine(CommandSpec command) {
    List<String> all = warnings(command);
    return all.isEmpty()
        ? Optional.empty()
        : Optional.of(
            "reference variables not implemented (" + all.size() + "): " + String.join("; ", all));
  }

  @Override
  public String defaultValue(ArgSpec argSpec) {
    // The SLUICE_* value of the given environment first (options carry only their declared
    // default), then the reference's translation; a test can hand in a whole environment.
    return envName(argSpec).map(name -> env.getOrDefault(name, overlay.get(name))).orElse(null);
  }

  /** The env twin of an option derived from a declared setting. */
  private static Optional<String> envName(ArgSpec arg) {
    return SettingOptions.setting(arg).map(Setting::env);
  }

  /** The log level for logback: SLUICE_LOG_LEVEL, else the reference's LOG_LEVEL, translated. */
  Optional<String> logLevel() {
    return Optional.ofNullable(
        env.getOrDefault("SLUICE_LOG_LEVEL", overlay.get("SLUICE_LOG_LEVEL")));
  }

  /** {@code text} or {@code json}: SLUICE_LOG_FORMAT, else the reference's LOG_FORMAT. */
  String logFormat() {
    return env.getOrDefault("SLUICE_LOG_FORMAT", overlay.getOrDefault("SLUICE_LOG_FORMAT", "text"))
        .toLowerCase(Locale.ROOT);
  }

  // --- translation -----------------------------------------------------------------------------

  /** In this order, which fixes the order of warnings and errors and which variable wins a twin. */
  private static void translate(ReferenceTranslation t) {
    ReferenceServerVariables.servers(t);
    ReferenceServerVariables.rules(t);
    ReferenceRedisVariables.store(t);
    ReferenceRedisVariables.redis(t);
    ReferenceServerVariables.behaviour(t);
    ReferenceObservabilityVariables.observability(t);
    ReferenceObservabilityVariables.xds(t);
    ReferenceUnsupported.translate(t);
  }

  /** Go's time.ParseDuration: {@code 1h30m}, {@code 1.5s}, {@code 500ms}, {@code 0}. */
  static Duration goDuration(String text) {
    return ReferenceTranslation.goDuration(text);
  }
}
