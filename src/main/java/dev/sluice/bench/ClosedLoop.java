package dev.sluice.bench;

import dev.sluice.threads.DaemonThreadFactory;
import io.grpc.Channel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The closed loop (rate 0): {@code concurrency} chains over the channels round-robin, each sending
 * its next request when the previous one ends, until the window closes; latency runs from the
 * actual send. Each chain holds one in-flight slot from its first send until it stops.
 *
 * <p>Threads: {@link #start} sends every chain's first request from the thread that runs the
 * generator. A chain's next request is sent from the thread its answer arrived on (its channel's
 * event loop, {@code directExecutor}), so a chain adds no thread hop; after a failed call, from the
 * single {@code bench-after-error} thread, so that a call failing inline cannot recurse into the
 * next send without bound.
 */
final class ClosedLoop implements LoadDriver {
  private final LoadRun load;
  private final ClientChannels clients;
  private final int concurrency;

  /** Failed calls continue here, so a call that fails inline cannot recurse without bound. */
  private final ExecutorService afterError;

  ClosedLoop(BenchConfig config, ClientChannels clients, LoadRun load) {
    this.load = load;
    this.clients = clients;
    this.concurrency = config.concurrency();
    this.afterError =
        Executors.newSingleThreadExecutor(new DaemonThreadFactory("bench-after-error"));
  }

  @Override
  public void start() throws InterruptedException {
    for (int i = 0; i < concurrency; i++) {
      load.acquireSlot();
      new Chain(clients.channels().get(i % clients.channels().size())).run();
    }
  }

  /** Nothing to wait for: a chain sends when an answer comes, never later than due. */
  @Override
  public void awaitSent(long timeoutNanos) {}

  @Override
  public void close() {
    afterError.shutdownNow();
  }

  /** One chain: send, and on the answer send again until the window closes. */
  private final class Chain implements Runnable {
    private final Channel channel;

    Chain(Channel channel) {
      this.channel = channel;
    }

    @Override
    public void run() {
      long now = System.nanoTime();
      if (now - load.end() >= 0) {
        load.releaseSlot();
        return;
      }
      load.send(channel, now, this, afterError);
    }
  }
}
