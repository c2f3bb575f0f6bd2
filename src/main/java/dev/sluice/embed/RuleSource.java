package dev.sluice.embed;

import dev.sluice.config.RulesConfig;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import dev.sluice.rules.load.RuleReloader;
import dev.sluice.threads.Scheduler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where the embedded limiter's rules come from: a directory (or one file) read by the server's own
 * {@link RuleLoader}, so a rule means the same in both, and reloaded by its {@link RuleReloader};
 * or YAML text, loaded once.
 */
sealed interface RuleSource {
  /** Interval of a reloader nobody polls: {@link RulesConfig} needs a positive one. */
  Duration UNPOLLED = Duration.ofDays(1);

  /**
   * The rules loaded and a reloader serving them; it polls only when {@code reloadEvery} is
   * present, and only once started.
   *
   * @throws IllegalArgumentException naming every problem, {@code file:line}, when the rules are
   *     invalid
   */
  RuleReloader open(Optional<Duration> reloadEvery, Clock clock, Scheduler scheduler);

  /** Rule files at {@code path}, as {@code sluice serve --rules} reads them. */
  record Directory(Path path) implements RuleSource {
    @Override
    public RuleReloader open(Optional<Duration> reloadEvery, Clock clock, Scheduler scheduler) {
      RuleLoader loader = loader();
      LoadResult.Loaded loaded = loadedOrThrow(loader.load(path));
      RulesConfig settings =
          new RulesConfig(path, reloadEvery.orElse(UNPOLLED), Algorithm.FIXED_WINDOW, Set.of());
      return new RuleReloader(settings, loaded, clock, scheduler, Quiet.INSTANCE);
    }
  }

  /** One rule file's text; never reloaded. */
  record Text(String yaml) implements RuleSource {
    @Override
    public RuleReloader open(Optional<Duration> reloadEvery, Clock clock, Scheduler scheduler) {
      RuleLoader loader = loader();
      LoadResult.Loaded loaded = loadedOrThrow(loadText(loader, yaml));
      return RuleReloader.forPushes(loader, loaded, clock, Quiet.INSTANCE);
    }

    /** Through a file of its own, so problems carry the line numbers the file loader gives. */
    private static LoadResult loadText(RuleLoader loader, String yaml) {
      try {
        Path dir = Files.createTempDirectory("sluice-embed-rules");
        Path file = dir.resolve("rules.yaml");
        try {
          Files.writeString(file, yaml);
          return loader.load(file);
        } finally {
          Files.deleteIfExists(file);
          Files.deleteIfExists(dir);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot stage the rules text: " + e.getMessage(), e);
      }
    }
  }

  private static RuleLoader loader() {
    return new RuleLoader(Algorithm.FIXED_WINDOW, Set.of());
  }

  private static LoadResult.Loaded loadedOrThrow(LoadResult result) {
    if (result instanceof LoadResult.Failed failed) {
      throw new IllegalArgumentException(
          "invalid rules: "
              + failed.problems().stream().map(Object::toString).collect(Collectors.joining("; ")));
    }
    return (LoadResult.Loaded) result;
  }

  /**
   * The reloader logs every reload and rejection itself; the embedded limiter has no metrics page.
   */
  enum Quiet implements RuleReloader.Listener {
    INSTANCE;

    @Override
    public void reloaded(RuleReloader.Snapshot snapshot) {}

    @Override
    public void rejected(RuleReloader.ReloadError error) {}
  }
}
