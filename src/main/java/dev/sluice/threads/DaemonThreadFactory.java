package dev.sluice.threads;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one way Sluice creates threads: daemon threads (so a forgotten one never keeps the JVM alive
 * after {@code close}), named {@code <prefix>-0}, {@code <prefix>-1}, … in creation order, so a
 * thread dump says what each one runs. Thread-safe.
 */
public final class DaemonThreadFactory implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger created = new AtomicInteger();

  public DaemonThreadFactory(String prefix) {
    this.prefix = Objects.requireNonNull(prefix, "prefix");
  }

  /** A new, unstarted daemon thread named {@code <prefix>-<n>}. */
  @Override
  public Thread newThread(Runnable runnable) {
    Thread thread = new Thread(runnable, prefix + "-" + created.getAndIncrement());
    thread.setDaemon(true);
    return thread;
  }
}
