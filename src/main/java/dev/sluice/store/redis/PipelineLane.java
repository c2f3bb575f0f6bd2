package dev.sluice.store.redis;

import dev.sluice.store.BatchTrace;
import dev.sluice.store.Patience;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreShedException;
import dev.sluice.store.StoreUnreachableException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * One Redis connection and the one thread that writes to it. {@link #submit} queues a request from
 * any thread and returns its future at once. The writer takes everything queued, up to {@link
 * #MAX_BATCH_HITS} hits but never part of a request, sends it as one pipeline with one flush, reads
 * every reply and completes each request's future. A lone request goes out at once; under load, the
 * requests that arrive during one round trip share the next.
 *
 * <p>The timeout runs from when a pipeline is written: it is the socket's read timeout, armed when
 * the writer starts reading the replies of a pipeline it has just flushed, so time a request spent
 * queued behind other batches (or the writer waiting for a CPU) never counts towards it. The queue
 * is bounded instead: a lane holds at most {@code maxPendingHits} hits waiting or in flight, and a
 * request that would go past it is shed at once with {@link StoreShedException} ("shed: store queue
 * full") rather than queued to time out later; a request alone on an empty lane is always taken,
 * however large. Requests whose callers stopped waiting (their gRPC deadline passed, or they
 * cancelled) are never written: {@link LaneBacklog} drops them when they arrive, when the writer
 * takes them and when newer work needs their room, before it sheds anything.
 *
 * <p>Failures: when a reply times out or the connection breaks, every request of that batch fails
 * with {@link StoreException} and is not retried, because Redis may have applied it. A connection
 * that cannot be opened because Redis refuses it, or does not answer the connect, fails with {@link
 * StoreUnreachableException}, which opens the circuit breaker at once. The next batch reconnects
 * (connect timeout: the store's timeout); when that fails, the batch and everything queued behind
 * it fail at once instead of each waiting for its own attempt, and the lane does not try again
 * until more work arrives. A connection unused for {@link #IDLE_CHECK_NANOS}, or older than a break
 * another lane saw, is checked with PING before a batch, so a Redis restart fails at most the batch
 * in flight rather than one more batch per stale connection.
 *
 * <p>Thread-safety: {@link #submit}, {@link #load} and {@link #close} from any thread. The
 * connection and its pipeline are confined to the writer thread. Answers are told on the writer
 * thread, so what they run there should be short. The queue ({@link LaneQueue}) is lock-free; the
 * writer parks only when it finds it empty.
 */
final class PipelineLane implements AutoCloseable {
  /** Hits per pipeline at most, bounding one round trip's latency. */
  static final int MAX_BATCH_HITS = 512;

  /** Redis may have restarted or dropped a connection unused this long: PING it first. */
  private static final long IDLE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final Logger log = LoggerFactory.getLogger(PipelineLane.class);

  private final String address;
  private final Supplier<Connection> connector;
  private final AtomicLong breaks;
  private final Duration closeWait;
  private final BatchTrace trace;
  private final LaneBacklog backlog;
  private final Patience.Source callers;
  private final Thread writer;
  private final Map<String, CoalescedScript> coalesced;
  private volatile boolean closed;

  // Writer thread only (and the constructing thread before start()).
  private Connection connection;
  private Pipeline pipeline;
  private long lastUsedNanos;
  private long breaksSeen;

  /**
   * @param spec the writer thread's factory (not started until {@link #start}), the connect and
   *     reply timeout (which bounds how long {@link #close} waits), the queue bound, the trace told
   *     about each pipeline, so a trace shows it once however many requests share it, and where
   *     each request's caller {@link Patience} comes from (read on the submitting thread)
   * @param node where the lane connects, its break counter and the scripts it combines per batch
   */
  PipelineLane(Lanes.Spec spec, Lanes.Node node) {
    this.trace = spec.trace();
    this.address = node.address();
    this.connector = node.connector();
    this.breaks = node.breaks();
    Map<String, CoalescedScript> combined = new LinkedHashMap<>();
    for (CoalescedScript.Form form : node.coalesced()) {
      combined.put(form.script().resource(), new CoalescedScript(form.script(), form.argsPerKey()));
    }
    this.coalesced = Collections.unmodifiableMap(combined);
    this.callers = spec.callers();
    // A batch in flight ends within a few timeouts: PING, connect, SCRIPT LOAD, the replies.
    this.closeWait = spec.timeout().multipliedBy(5).plusSeconds(1);
    this.writer = spec.threads().newThread(this::run);
    this.backlog = new LaneBacklog(writer, spec.maxPendingHits(), address);
  }

  /** Connects now instead of on the first batch; call before {@link #start}. */
  void connect() {
    connection = connector.get();
    pipeline = new Pipeline(connection);
    lastUsedNanos = System.nanoTime();
    breaksSeen = breaks.get();
  }

  void start() {
    writer.start();
  }

  /** Hits queued or in flight: the lane's load. */
  int load() {
    return backlog.load();
  }

  /** {@link #submit(int, PendingRequest.Commands, PendingRequest.Answer)} into a new future. */
  <T> CompletableFuture<T> submit(int hits, PendingRequest.Commands<T> commands) {
    CompletableFuture<T> future = new CompletableFuture<>();
    submit(
        hits,
        commands,
        (value, failure) -> {
          if (failure == null) {
            future.complete(value);
          } else {
            future.completeExceptionally(failure);
          }
        });
    return future;
  }

  /**
   * Queues one request. Never blocks: when the lane is closed, {@code answer} has already been told
   * a {@link StoreException}; when it is full of live work, a {@link StoreShedException}; when the
   * caller of the request on this thread has stopped waiting, a {@link
   * dev.sluice.store.StoreExpiredException} ({@link LaneBacklog#offer}).
   */
  <T> void submit(int hits, PendingRequest.Commands<T> commands, PendingRequest.Answer<T> answer) {
    PendingRequest<T> request =
        new PendingRequest<>(hits, commands, answer, trace.requestQueued(), callers.current());
    if (closed) {
      request.fail(closedFailure());
      return;
    }
    if (backlog.offer(request) && closed) {
      backlog.failAll(closedFailure()); // close() may have emptied the queue just before the add
    }
  }

  private void run() {
    try {
      while (!closed) {
        List<PendingRequest<?>> batch = backlog.takeBatch(MAX_BATCH_HITS);
        try {
          process(batch);
        } finally {
          backlog.written(batch);
          lastUsedNanos = System.nanoTime();
        }
      }
    } catch (InterruptedException e) {
      // close() wakes an idle writer this way.
    } finally {
      disconnect();
      failQueued(closedFailure());
    }
  }

  private void process(List<PendingRequest<?>> batch) {
    if (closed) {
      fail(batch, closedFailure());
      return;
    }
    try {
      ensureConnected();
    } catch (RuntimeException e) {
      StoreException failure =
          ConnectFailures.unreachable(e)
              ? new StoreUnreachableException(
                  "redis at " + address + ": cannot connect: " + e.getMessage(), e)
              : failure("cannot connect", e);
      fail(batch, failure);
      failQueued(failure);
      return;
    }
    BatchTrace.Round round = trace.batchSent(address, traces(batch), hits(batch));
    try {
      send(batch);
      round.ended(null);
    } catch (RuntimeException e) {
      // A read timed out or the connection broke: replies are lost, the connection is unusable.
      disconnect();
      breaks.incrementAndGet();
      StoreException failure = failure("pipeline of " + batch.size() + " requests failed", e);
      round.ended(failure);
      fail(batch, failure);
    }
  }

  private static List<Object> traces(List<PendingRequest<?>> batch) {
    List<Object> traces = new ArrayList<>(batch.size());
    for (PendingRequest<?> request : batch) {
      traces.add(request.trace());
    }
    return traces;
  }

  private static int hits(List<PendingRequest<?>> batch) {
    int hits = 0;
    for (PendingRequest<?> request : batch) {
      hits += request.hits();
    }
    return hits;
  }

  private void ensureConnected() {
    boolean suspect =
        breaks.get() != breaksSeen || System.nanoTime() - lastUsedNanos > IDLE_CHECK_NANOS;
    if (connection != null && suspect && !answersPing()) {
      disconnect();
      breaks.incrementAndGet();
    }
    if (connection == null) {
      connect();
    }
    breaksSeen = breaks.get();
  }

  private boolean answersPing() {
    try {
      return connection.ping();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * One pipeline for the batch, the combined script calls ({@link CoalescedScript}) last, once
   * every request has queued; a second pipeline only for script calls that got NOSCRIPT.
   */
  private void send(List<PendingRequest<?>> batch) {
    for (CoalescedScript script : coalesced.values()) {
      script.begin();
    }
    LanePipeline lanePipeline = new LanePipeline(pipeline, coalesced);
    List<Sent<?>> sent = new ArrayList<>(batch.size());
    for (PendingRequest<?> request : batch) {
      sent.add(Sent.queue(request, lanePipeline));
    }
    for (CoalescedScript script : coalesced.values()) {
      script.flush(pipeline);
    }
    pipeline.sync();
    boolean resent = false;
    for (Sent<?> each : sent) {
      resent |= each.replies().resendMissingScripts(pipeline);
    }
    for (CoalescedScript script : coalesced.values()) {
      resent |= script.resendIfNoScript(pipeline);
    }
    if (resent) {
      pipeline.sync();
    }
    for (Sent<?> each : sent) {
      each.complete(this);
    }
  }

  private void disconnect() {
    if (connection != null) {
      try {
        connection.forceDisconnect(); // no flush: unsent commands of a failed batch stay unsent
      } catch (IOException | RuntimeException e) {
        log.debug("redis at {}: closing a connection failed", address, e);
      }
      connection = null;
      pipeline = null;
    }
  }

  private static void fail(List<PendingRequest<?>> batch, StoreException failure) {
    batch.forEach(request -> request.fail(failure));
  }

  private void failQueued(StoreException failure) {
    backlog.failAll(failure);
  }

  private StoreException failure(String what, RuntimeException cause) {
    return new StoreException(
        "redis at " + address + ": " + what + ": " + cause.getMessage(), cause);
  }

  private StoreException closedFailure() {
    // Shaped like any lost connection, so callers need no separate case.
    return failure("store closed", new JedisConnectionException("the store is closed"));
  }

  /**
   * Stops taking requests and tells the writer to stop after the batch in flight, without waiting;
   * {@link #close} then waits. Lets a store stop all its lanes at once.
   */
  void shutdown() {
    closed = true;
    writer.interrupt(); // wakes a waiting writer; socket reads are not interruptible
  }

  /**
   * Stops taking requests, lets a batch in flight finish (within about the timeout), fails what is
   * still queued and ends the writer thread; idempotent.
   */
  @Override
  public void close() {
    shutdown();
    try {
      writer.join(closeWait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (writer.isAlive()) {
      log.warn("redis at {}: {} did not stop within {}", address, writer.getName(), closeWait);
    }
    failQueued(closedFailure());
  }

  /** A request whose commands are in the pipeline, with the replies to read once it synced. */
  private record Sent<T>(PendingRequest<T> request, PendingRequest.Replies<T> replies) {
    static <T> Sent<T> queue(PendingRequest<T> request, LanePipeline lanePipeline) {
      return new Sent<>(request, request.commands().queue(lanePipeline));
    }

    /**
     * Tells the answer; an error reply fails only this request, not its batch. Only reading the
     * replies is guarded: an answer that threw would otherwise be told a second time, as a failure.
     */
    void complete(PipelineLane lane) {
      T value;
      try {
        value = replies.value();
      } catch (StoreException e) {
        request.fail(e);
        return;
      } catch (JedisDataException e) {
        request.fail(ErrorReplies.classify(lane.address, e));
        return;
      } catch (RuntimeException e) {
        request.fail(lane.failure("command failed", e));
        return;
      }
      request.succeed(value);
    }
  }
}
