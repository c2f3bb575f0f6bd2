package dev.sluice.admin;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Keeps the admin HTTP port's connections few and quick. A connection must send its request line
 * and headers within {@code headerTimeout} of opening, else it is closed, however slowly it
 * trickles them. At most {@code maxConnections} are open: one more closes the connection that has
 * waited longest for its headers (a stalled one, not a probe that sends its few bytes at once), or
 * the new one itself when every other is being answered.
 *
 * <p>Each connection carries one request (the server answers with {@code Connection: close}), so
 * {@link #headersArrived} is called at most once per connection.
 *
 * <p>Threads: {@link #onOpened} and {@link #onClosed} run on the server's I/O threads, {@link
 * #headersArrived} on the thread that dispatches the request, the deadline on the timer thread.
 */
final class AdminConnections implements Connection.Listener {
  private final Scheduler timer;
  private final Duration headerTimeout;
  private final int maxConnections;
  private final AtomicInteger open = new AtomicInteger();
  // Guarded by itself: connections still waiting for their headers, oldest first, with the task
  // that closes each at its deadline.
  private final Map<Connection, Scheduler.Task> waiting = new LinkedHashMap<>();

  AdminConnections(Scheduler timer, Duration headerTimeout, int maxConnections) {
    this.timer = timer;
    this.headerTimeout = headerTimeout;
    this.maxConnections = maxConnections;
  }

  @Override
  public void onOpened(Connection connection) {
    Scheduler.Task deadline =
        timer.schedule(
            () -> closeIfWaiting(connection), headerTimeout.toNanos(), TimeUnit.NANOSECONDS);
    Connection evicted = null;
    synchronized (waiting) {
      waiting.put(connection, deadline);
      if (open.incrementAndGet() > maxConnections) {
        Iterator<Map.Entry<Connection, Scheduler.Task>> oldest = waiting.entrySet().iterator();
        Map.Entry<Connection, Scheduler.Task> first = oldest.next();
        first.getValue().cancel();
        oldest.remove();
        evicted = first.getKey();
      }
    }
    if (evicted != null) {
      evicted.getEndPoint().close();
    }
  }

  /** The request line and headers of {@code connection} are in: its deadline no longer applies. */
  void headersArrived(Connection connection) {
    Scheduler.Task deadline;
    synchronized (waiting) {
      deadline = waiting.remove(connection);
    }
    if (deadline != null) {
      deadline.cancel();
    }
  }

  @Override
  public void onClosed(Connection connection) {
    open.decrementAndGet();
    headersArrived(connection);
  }

  private void closeIfWaiting(Connection connection) {
    boolean late;
    synchronized (waiting) {
      late = waiting.remove(connection) != null;
    }
    if (late) {
      connection.getEndPoint().close();
    }
  }

  /** Connections open now. */
  int open() {
    return open.get();
  }
}
