package dev.sluice.capture;

import dev.sluice.config.CaptureConfig;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.replay.CapturedRequest;
import dev.sluice.rules.Entry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --capture-file}: samples requests on the request thread (one random draw, one clock read,
 * one non-blocking {@link BlockingQueue#offer}) and writes them on its own thread ({@code
 * sluice-capture-0}) as {@link CapturedRequest} JSON lines, the format {@code sluice replay
 * --input} reads, in the file within about {@value #FLUSH_EVERY_MILLIS} ms. When the queue is full
 * the request is dropped and counted ({@code sluice_capture_requests_total{result="dropped"}}): a
 * slow disk never slows a decision. What a line keeps: timestamp, domain, each descriptor's entries
 * and the request's hits_addend; a descriptor's own hits_addend and limit override are not in the
 * format and are not captured.
 *
 * <p>A line counts as {@code written} once a flush put it in the file, and as {@code failed} when
 * the write that carried it failed (it is then gone, never written later). A failing stretch is
 * logged twice: one WARN when it starts and one INFO, with the requests it lost, when a write
 * succeeds again. The file is opened by {@link #start}, so a path that {@link CaptureFiles} refuses
 * stops startup. Thread-safe.
 */
public final class CaptureWriter implements RequestCapture {
  private static final Logger log = LoggerFactory.getLogger(CaptureWriter.class);

  /**
   * 160,000 sampled requests/s at one drain every {@link #DRAIN_EVERY_MILLIS} ms; a request in the
   * queue is a few hundred bytes.
   */
  static final int QUEUE_CAPACITY = 8192;

  private static final int BATCH = 512;

  /**
   * Lines reach the file at most this long after they were taken (at once when the writer is idle
   * or closes): flushing every batch cost about one system call per line at a 1 % sample.
   */
  private static final long FLUSH_EVERY_MILLIS = 200;

  private static final long FLUSH_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(FLUSH_EVERY_MILLIS);

  /** Or sooner, once this much waits in memory: a busy writer holds little between flushes. */
  private static final long FLUSH_AT_BYTES = 1 << 16;

  /** How long the idle writer sleeps before looking at the queue again. */
  private static final long DRAIN_EVERY_MILLIS = 50;

  private static final long CLOSE_WAIT_SECONDS = 5;

  /** A request waiting to be written: the call as the request path built it, never copied. */
  private record Pending(long timestampMillis, RateLimitCall call) {}

  private static final Pending END = new Pending(0, null);

  private final CaptureConfig config;
  private final Clock clock;
  private final SluiceMetrics metrics;
  private final ThreadFactory threads;
  private final BlockingQueue<Pending> queue;
  private final RotatingFile file;
  private final ValueHashing hashing;
  private Thread writer;
  // Writer thread only.
  private boolean failing;
  private long lostWhileFailing;
  private long lastFlushNanos;

  public CaptureWriter(
      CaptureConfig config, Clock clock, SluiceMetrics metrics, ThreadFactory threads) {
    this(config, clock, metrics, threads, QUEUE_CAPACITY);
  }

  CaptureWriter(
      CaptureConfig config,
      Clock clock,
      SluiceMetrics metrics,
      ThreadFactory threads,
      int queueCapacity) {
    this.config = config;
    this.clock = clock;
    this.metrics = metrics;
    this.threads = threads;
    this.queue = new ArrayBlockingQueue<>(queueCapacity);
    this.file =
        new RotatingFile(
            config.file().orElseThrow(() -> new IllegalArgumentException("capture is off")),
            config.maxBytes(),
            config.maxFiles());
    this.hashing = config.hashValues() ? new ValueHashing(randomKey()) : null;
  }

  /**
   * Opens the file and starts the writer thread.
   *
   * @throws UncheckedIOException when the file cannot be opened or is refused (a symbolic link, not
   *     a regular file), naming the path and why
   */
  public synchronized CaptureWriter start() {
    try {
      file.open();
    } catch (IOException e) {
      throw new UncheckedIOException("--capture-file: " + e.getMessage(), e);
    }
    writer = threads.newThread(this::writeUntilClosed);
    writer.start();
    return this;
  }

  @Override
  public void offer(RateLimitCall call) {
    double rate = config.sampleRate();
    if (rate < 1 && ThreadLocalRandom.current().nextDouble() >= rate) {
      return;
    }
    if (!queue.offer(new Pending(clock.millis(), call))) {
      metrics.captured("dropped", 1);
    }
  }

  private void writeUntilClosed() {
    List<Pending> batch = new ArrayList<>(BATCH);
    try {
      while (true) {
        queue.drainTo(batch, BATCH);
        if (batch.isEmpty()) {
          flush(); // idle: what was written becomes visible
          // Sleeping instead of waiting on the queue: an offer then never has a thread to wake,
          // which would cost the request thread a system call per sampled request.
          Thread.sleep(DRAIN_EVERY_MILLIS);
          continue;
        }
        boolean more = write(batch);
        batch.clear();
        if (!more) {
          flush();
          return;
        }
        if (file.pendingBytes() >= FLUSH_AT_BYTES
            || System.nanoTime() - lastFlushNanos >= FLUSH_EVERY_NANOS) {
          flush();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Appends {@code batch} to the file's pending lines; false once it held {@link #END}. */
  private boolean write(List<Pending> batch) {
    for (Pending pending : batch) {
      if (pending == END) {
        return false;
      }
      try {
        file.append(line(pending).toJsonLine());
      } catch (RuntimeException e) {
        failed(1, e); // a line that cannot be made is lost alone; the file is not at fault
      }
    }
    return true;
  }

  private void flush() {
    lastFlushNanos = System.nanoTime();
    RotatingFile.Flushed flushed = file.flush();
    if (flushed.lines() > 0) {
      metrics.captured("written", flushed.lines());
    }
    if (flushed.failure().isPresent()) {
      failed(flushed.lost(), flushed.failure().get());
    } else if (flushed.lines() > 0 && failing) {
      log.info(
          "capture to {} writing again; {} requests were lost while it failed",
          config.file().get(),
          lostWhileFailing);
      failing = false;
      lostWhileFailing = 0;
    }
  }

  private void failed(long requests, Exception e) {
    metrics.captured("failed", requests);
    if (!failing) {
      log.warn(
          "capture to {} failing (requests are dropped until a write succeeds): {}",
          config.file().get(),
          e.getMessage() != null ? e.getMessage() : e.toString());
    }
    failing = true;
    lostWhileFailing += requests;
  }

  private CapturedRequest line(Pending pending) {
    RateLimitCall call = pending.call();
    List<List<Entry>> descriptors = new ArrayList<>(call.descriptors().size());
    for (DescriptorRequest descriptor : call.descriptors()) {
      descriptors.add(hashing == null ? descriptor.entries() : hashing.hash(descriptor.entries()));
    }
    return new CapturedRequest(
        pending.timestampMillis(), call.domain(), descriptors, call.hitsAddend());
  }

  /** Writes what is queued, then stops the writer thread and closes the file. */
  @Override
  public synchronized void close() {
    try {
      if (writer != null) {
        if (queue.offer(END, CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
          writer.join(TimeUnit.SECONDS.toMillis(CLOSE_WAIT_SECONDS));
        }
        writer.interrupt();
      }
      file.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      log.warn("closing capture file {}: {}", config.file().get(), e.toString());
    }
  }

  private static byte[] randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return key;
  }
}
