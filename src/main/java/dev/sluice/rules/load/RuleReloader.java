package dev.sluice.rules.load;

import dev.sluice.rules.RuleSet;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the served rules current. Every poll compares a content hash of the rule files with the
 * last one tried, so in-place edits, added or removed files and symlink swaps (Kubernetes
 * ConfigMaps) are all seen; a file-system watch only triggers an earlier poll. A changed set is
 * validated whole first: if valid it replaces the served snapshot in one atomic swap (requests in
 * flight keep the snapshot they started with); if not, the previous rules keep serving and the
 * problems are logged once and kept for {@link #lastError()} until a later load succeeds.
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

  /** Empty when the rules are pushed (xDS): then there are no files to poll or re-read. */
  private final Optional<Path> path;

  private final RuleLoader loader;
  private final Clock clock;
  private final Listener listener;
  private final AtomicReference<Snapshot> current;
  private volatile ReloadError lastError;
  private String lastFingerprint;
  private ScheduledExecutorService scheduler;
  private WatchService watcher;

  /**
   * @param initial the rules loaded at startup, already validated
   */
  public RuleReloader(
      Path path, RuleLoader loader, LoadResult.Loaded initial, Clock clock, Listener listener) {
    this(Optional.of(path), loader, initial, clock, listener);
  }

  private RuleReloader(
      Optional<Path> path,
      RuleLoader loader,
      LoadResult.Loaded initial,
      Clock clock,
      Listener listener) {
    this.path = path;
    this.loader = loader;
    this.clock = clock;
    this.listener = listener;
    this.current = new AtomicReference<>(snapshotOf(initial));
    this.lastFingerprint = initial.version();
  }

  /**
   * A reloader for rules that are pushed through {@link #apply} (xDS) rather than read from files:
   * {@link #reload}, {@link #reloadIfChanged} and {@link #start} do nothing.
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

  /**
   * Polls every {@code interval} on a daemon thread, and polls early when the file system reports a
   * change in the rule directory or its parent (where a ConfigMap or symlink swap happens).
   */
  public synchronized void start(Duration interval) {
    if (scheduler != null || path.isEmpty()) {
      return;
    }
    scheduler = Executors.newSingleThreadScheduledExecutor(daemon("sluice-rules-reload"));
    long millis = Math.max(1, interval.toMillis());
    scheduler.scheduleWithFixedDelay(this::pollQuietly, millis, millis, TimeUnit.MILLISECONDS);
    startWatching();
  }

  private void pollQuietly() {
    try {
      reloadIfChanged();
    } catch (RuntimeException e) {
      // A reload must never kill the poller (the reference's config goroutine panics here).
      log.error("rule reload failed unexpectedly; will retry", e);
    }
  }

  private void startWatching() {
    try {
      watcher = FileSystems.getDefault().newWatchService();
      Path rules = path.get();
      Path dir = Files.isDirectory(rules) ? rules : rules.toAbsolutePath().getParent();
      register(dir);
      register(dir.toAbsolutePath().getParent());
    } catch (IOException | RuntimeException e) {
      log.warn("no file-system watch on {} ({}); polling only", path.get(), e.toString());
      return;
    }
    Thread thread = daemon("sluice-rules-watch").newThread(this::watchLoop);
    thread.start();
  }

  private void register(Path dir) throws IOException {
    if (dir != null && Files.isDirectory(dir)) {
      dir.register(
          watcher,
          StandardWatchEventKinds.ENTRY_CREATE,
          StandardWatchEventKinds.ENTRY_MODIFY,
          StandardWatchEventKinds.ENTRY_DELETE);
    }
  }

  private void watchLoop() {
    try {
      while (true) {
        var key = watcher.take();
        key.pollEvents();
        key.reset();
        scheduler.execute(this::pollQuietly);
      }
    } catch (InterruptedException
        | ClosedWatchServiceException
        | java.util.concurrent.RejectedExecutionException e) {
      // closed: stop watching
    } catch (RuntimeException e) {
      log.warn("file-system watch stopped ({}); polling only", e.toString());
    }
  }

  @Override
  public synchronized void close() {
    if (watcher != null) {
      try {
        watcher.close();
      } catch (IOException e) {
        log.debug("closing the watch service failed", e);
      }
    }
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
