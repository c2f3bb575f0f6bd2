package dev.sluice.rules.load;

import dev.sluice.config.RulesConfig;
import dev.sluice.rules.RuleSet;
import dev.sluice.threads.Scheduler;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the served rules current. Every poll compares a content hash of the rule files with the
 * last one tried, so in-place edits, added or removed files and symlink swaps (Kubernetes
 * ConfigMaps) are all seen; a file-system watch ({@link RuleWatch}) only triggers an earlier poll
 * ({@link #pollSoon}). Polls run on the injected {@link Scheduler}. A changed set is validated
 * whole first: if valid it replaces the served snapshot in one atomic swap (requests in flight keep
 * the snapshot they started with); if not, the previous rules keep serving and the problems are
 * logged once and kept for {@link #lastError()} until a later load succeeds.
 *
 * <p>Thread-safe. Reloads are serialized; {@link #rules()} is a volatile read.
 */
public final class RuleReloader implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RuleReloader.class);

  /** The rules being served and where they came from. */
  public record Snapshot(RuleSet rules, String version, Instant loadedAt, List<Path> files) {
    public Snapshot {
      Objects.requireNonNull(rules, "rules");
      files = List.copyOf(files);
    }
  }

  /** Why the newest rule files were rejected. */
  public record ReloadError(List<RuleProblem> problems, Instant at) {
    public ReloadError {
      problems = List.copyOf(problems);
    }
  }

  /** What a reload attempt did. */
  public enum Outcome {
    UNCHANGED,
    RELOADED,
    REJECTED
  }

  /** Told about every reload attempt that read changed files; for metrics. */
  public interface Listener {
    void reloaded(Snapshot snapshot);

    void rejected(ReloadError error);
  }

  /** Rule files and how they are polled. */
  private record Polling(Path path, Duration interval, Scheduler scheduler) {}

  /** Empty when the rules are pushed (xDS): then there are no files to poll or re-read. */
  private final Optional<Polling> polling;

  private final Optional<Path> path;
  private final RuleLoader loader;
  private final Clock clock;
  private final Listener listener;
  private final AtomicReference<Snapshot> current;
  private volatile ReloadError lastError;
  private String lastFingerprint;
  private Scheduler.Cancellable scheduled; // guarded by this

  /**
   * Serves {@code initial}; nothing is polled until {@link #start}.
   *
   * @param rules where the rule files are, how often to poll them and their default algorithm
   * @param initial the rules loaded at startup, already validated
   * @param scheduler runs the polls; {@link #reloadIfChanged} and {@link #reload} may also be
   *     called from any thread
   */
  public RuleReloader(
      RulesConfig rules,
      LoadResult.Loaded initial,
      Clock clock,
      Scheduler scheduler,
      Listener listener) {
    this(
        rules,
        new RuleLoader(rules.defaultAlgorithm(), rules.reading()),
        initial,
        clock,
        scheduler,
        listener);
  }

  /**
   * Polls {@code rules.path()} and reloads with {@code loader}: the loader that loaded {@code
   * initial}, so a reload reads files exactly as the start did (a loader built here from {@code
   * rules} alone once dropped {@code --merge-domains} and {@code --default-consistency}, and a
   * reload of merged domains was rejected as duplicate domains).
   */
  public RuleReloader(
      RulesConfig rules,
      RuleLoader loader,
      LoadResult.Loaded initial,
      Clock clock,
      Scheduler scheduler,
      Listener listener) {
    this(
        Optional.of(new Polling(rules.path(), rules.reloadInterval(), scheduler)),
        loader,
        initial,
        clock,
        listener);
  }

  private RuleReloader(
      Optional<Polling> polling,
      RuleLoader loader,
      LoadResult.Loaded initial,
      Clock clock,
      Listener listener) {
    this.polling = polling;
    this.path = polling.map(Polling::path);
    this.loader = loader;
    this.clock = clock;
    this.listener = listener;
    this.current = new AtomicReference<>(snapshotOf(initial));
    this.lastFingerprint = initial.version();
  }

  /**
   * A reloader for rules that are pushed through {@link #apply} (xDS) rather than read from files:
   * {@link #reload}, {@link #reloadIfChanged}, {@link #start} and {@link #pollSoon} do nothing.
   */
  public static RuleReloader forPushes(
      RuleLoader loader, LoadResult.Loaded initial, Clock clock, Listener listener) {
    return new RuleReloader(Optional.empty(), loader, initial, clock, listener);
  }

  /** The rules to use for one request; read it once per request. */
  public RuleSet rules() {
    return current.get().rules();
  }

  public Snapshot current() {
    return current.get();
  }

  /** Present while the newest files are invalid and older rules are being served. */
  public Optional<ReloadError> lastError() {
    return Optional.ofNullable(lastError);
  }

  /** Reloads when the files' content differs from the last attempt. */
  public synchronized Outcome reloadIfChanged() {
    if (path.isEmpty()) {
      return Outcome.UNCHANGED;
    }
    String fingerprint = loader.fingerprint(path.get());
    if (fingerprint.equals(lastFingerprint)) {
      return Outcome.UNCHANGED;
    }
    lastFingerprint = fingerprint;
    return load();
  }

  /** Reloads now, whether or not the files changed (the admin API's explicit reload). */
  public synchronized Outcome reload() {
    if (path.isEmpty()) {
      return Outcome.UNCHANGED;
    }
    lastFingerprint = loader.fingerprint(path.get());
    return load();
  }

  private Outcome load() {
    return apply(loader.load(path.get()), path.get().toString());
  }

  /**
   * Serves {@code result} when it loaded, in one atomic swap; otherwise keeps the rules being
   * served and records the problems for {@link #lastError()}, as a file reload does.
   *
   * @param from where the rules came from, for the log
   */
  public synchronized Outcome apply(LoadResult result, String from) {
    if (result instanceof LoadResult.Failed failed) {
      ReloadError error = new ReloadError(failed.problems(), clock.instant());
      lastError = error;
      log.error(
          "rules in {} rejected, still serving version {}: {}",
          from,
          current.get().version(),
          String.join("; ", failed.problems().stream().map(Object::toString).toList()));
      listener.rejected(error);
      return Outcome.REJECTED;
    }
    Snapshot snapshot = snapshotOf((LoadResult.Loaded) result);
    Snapshot previous = current.getAndSet(snapshot);
    lastError = null;
    log.info(
        "rules reloaded from {}: version {} -> {}, {} domains, {} rules",
        from,
        previous.version(),
        snapshot.version(),
        snapshot.rules().domains().size(),
        snapshot.rules().rules().size());
    listener.reloaded(snapshot);
    return Outcome.RELOADED;
  }

  private Snapshot snapshotOf(LoadResult.Loaded loaded) {
    return new Snapshot(loaded.rules(), loaded.version(), clock.instant(), loaded.files());
  }

  /** Polls the files every reload interval on the scheduler; nothing for pushed rules. */
  public synchronized RuleReloader start() {
    if (scheduled == null && polling.isPresent()) {
      Polling files = polling.get();
      scheduled =
          files
              .scheduler()
              .scheduleWithFixedDelay(this::pollQuietly, files.interval(), files.interval());
    }
    return this;
  }

  /**
   * Polls once soon on the scheduler, e.g. because the file system reported a change; never on the
   * caller's thread, so a watch thread never parses rules.
   */
  public void pollSoon() {
    polling.ifPresent(files -> files.scheduler().execute(this::pollQuietly));
  }

  private void pollQuietly() {
    try {
      reloadIfChanged();
    } catch (RuntimeException e) {
      // A reload must never kill the poller (the reference's config goroutine panics here).
      log.error("rule reload failed unexpectedly; will retry", e);
    }
  }

  /** Stops polling; a poll in progress finishes. */
  @Override
  public synchronized void close() {
    if (scheduled != null) {
      scheduled.cancel();
    }
  }
}
