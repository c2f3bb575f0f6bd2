package dev.sluice.testing;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real xDS management server for tests: grpc-java serving Envoy's ADS (state of the world) on a
 * free port. It answers a stream's first request with the current snapshot, sends each {@link
 * #push} to every open stream, and records every request (ACKs and NACKs) for assertions. It can be
 * stopped and started again on the same port, as a control plane that restarts.
 */
public final class TestAdsServer implements AutoCloseable {
  private final String typeUrl;
  private final ServerCredentials credentials;
  private final BlockingQueue<DiscoveryRequest> requests = new LinkedBlockingQueue<>();
  private final List<StreamObserver<DiscoveryResponse>> streams = new CopyOnWriteArrayList<>();
  private final AtomicInteger nonces = new AtomicInteger();
  private volatile DiscoveryResponse snapshot;
  private int port;
  private Server server;

  private TestAdsServer(String typeUrl, ServerCredentials credentials) {
    this.typeUrl = typeUrl;
    this.credentials = credentials;
  }

  /** Serves {@code typeUrl} resources on a free port, with no snapshot yet. */
  public static TestAdsServer start(String typeUrl) {
    return start(typeUrl, InsecureServerCredentials.create());
  }

  /** The same over {@code credentials} (e.g. {@code TlsServerCredentials} for TLS tests). */
  public static TestAdsServer start(String typeUrl, ServerCredentials credentials) {
    TestAdsServer ads = new TestAdsServer(typeUrl, credentials);
    ads.listen(0);
    return ads;
  }

  /** Whether a client sent a request within {@code timeout}; consumes it. */
  public boolean anyRequestWithin(Duration timeout) {
    try {
      return requests.poll(timeout.toMillis(), TimeUnit.MILLISECONDS) != null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  public int port() {
    return port;
  }

  public String target() {
    return "127.0.0.1:" + port;
  }

  /** Makes {@code resources} at {@code version} the snapshot and sends it to every open stream. */
  public synchronized void push(String version, Message... resources) {
    DiscoveryResponse.Builder response =
        DiscoveryResponse.newBuilder()
            .setVersionInfo(version)
            .setTypeUrl(typeUrl)
            .setNonce("n" + nonces.incrementAndGet());
    for (Message resource : resources) {
      response.addResources(Any.pack(resource));
    }
    snapshot = response.build();
    for (StreamObserver<DiscoveryResponse> stream : streams) {
      stream.onNext(snapshot);
    }
  }

  /** The next request a client sent, waiting up to {@code timeout}. */
  public DiscoveryRequest nextRequest(Duration timeout) {
    try {
      DiscoveryRequest request = requests.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (request == null) {
        throw new AssertionError("no xDS request within " + timeout);
      }
      return request;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** The next request that answers {@code nonce} (an ACK or a NACK of that response). */
  public DiscoveryRequest answerTo(String nonce, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
      DiscoveryRequest request = nextRequest(left);
      if (request.getResponseNonce().equals(nonce)) {
        return request;
      }
    }
  }

  /** The nonce of the last pushed snapshot. */
  public String lastNonce() {
    return snapshot.getNonce();
  }

  /** Goes away: streams end, the port closes; the snapshot is kept for {@link #restart}. */
  public synchronized void stop() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    streams.clear();
  }

  /** Comes back on the same port. */
  public synchronized void restart() {
    listen(port);
  }

  private void listen(int onPort) {
    server = Grpc.newServerBuilderForPort(onPort, credentials).addService(new Ads()).build();
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    port = server.getPort();
  }

  @Override
  public void close() {
    stop();
  }

  private final class Ads
      extends AggregatedDiscoveryServiceGrpc.AggregatedDiscoveryServiceImplBase {
    @Override
    public StreamObserver<DiscoveryRequest> streamAggregatedResources(
        StreamObserver<DiscoveryResponse> responses) {
      return new StreamObserver<>() {
        private boolean first = true;

        @Override
        public void onNext(DiscoveryRequest request) {
          requests.add(request);
          synchronized (TestAdsServer.this) {
            if (first) {
              first = false;
              streams.add(responses);
              if (snapshot != null) {
                responses.onNext(snapshot);
              }
            }
          }
        }

        @Override
        public void onError(Throwable t) {
          streams.remove(responses);
        }

        @Override
        public void onCompleted() {
          streams.remove(responses);
          responses.onCompleted();
        }
      };
    }
  }
}
