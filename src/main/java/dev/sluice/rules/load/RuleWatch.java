package dev.sluice.rules.load;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a rule reload come sooner: one dedicated thread blocks on the file system's change events
 * for the rule directory and its parent (where a ConfigMap or symlink swap happens) and calls
 * {@code onChange} for each batch. Only a hint: the reloader's poll finds every change anyway, so
 * when no watch is possible this logs and does nothing.
 *
 * <p>Thread: the one thread from the injected factory, started by {@link #start}, ended by {@link
 * #close}; it only calls {@code onChange}, which must hand the work to another thread ({@link
 * RuleReloader#pollSoon}).
 */
public final class RuleWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RuleWatch.class);

  private final Path path;
  private final Runnable onChange;
  private final ThreadFactory threads;
  private WatchService watcher; // guarded by this

  public RuleWatch(Path path, Runnable onChange, ThreadFactory threads) {
    this.path = path;
    this.onChange = onChange;
    this.threads = threads;
  }

  /** Registers the watch and starts its thread; without a watch service, logs and returns. */
  public synchronized RuleWatch start() {
    if (watcher != null) {
      return this;
    }
    try {
      watcher = FileSystems.getDefault().newWatchService();
      Path dir = Files.isDirectory(path) ? path : path.toAbsolutePath().getParent();
      register(watcher, dir);
      register(watcher, dir.toAbsolutePath().getParent());
    } catch (IOException | RuntimeException e) {
      log.warn("no file-system watch on {} ({}); polling only", path, e.toString());
      return this;
    }
    WatchService events = watcher;
    threads.newThread(() -> watchLoop(events)).start();
    return this;
  }

  private static void register(WatchService watcher, Path dir) throws IOException {
    if (dir != null && Files.isDirectory(dir)) {
      dir.register(
          watcher,
          StandardWatchEventKinds.ENTRY_CREATE,
          StandardWatchEventKinds.ENTRY_MODIFY,
          StandardWatchEventKinds.ENTRY_DELETE);
    }
  }

  private void watchLoop(WatchService events) {
    try {
      while (true) {
        var key = events.take();
        key.pollEvents();
        key.reset();
        onChange.run();
      }
    } catch (InterruptedException | ClosedWatchServiceException | RejectedExecutionException e) {
      // closed: stop watching
    } catch (RuntimeException e) {
      log.warn("file-system watch stopped ({}); polling only", e.toString());
    }
  }

  /** Closes the watch service, which ends the thread. */
  @Override
  public synchronized void close() {
    if (watcher != null) {
      try {
        watcher.close();
      } catch (IOException e) {
        log.debug("closing the watch service failed", e);
      }
    }
  }
}
