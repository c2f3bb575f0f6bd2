package dev.sluice.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConnectionAge;
import dev.sluice.config.GrpcTransportConfig;
import dev.sluice.config.GrpcTransportConfig.RlsHandlers;
import dev.sluice.config.GrpcTransportConfig.Transport;
import dev.sluice.testing.Eventually;
import dev.sluice.threads.DaemonThreadFactory;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Which thread runs a call, on each transport and handler choice; health and reflection too. */
class GrpcServerThreadsIT {

  /** Answers OK and remembers the name of the thread that ran it. */
  private static final class ThreadRecordingService
      extends RateLimitServiceGrpc.RateLimitServiceImplBase {
    volatile String thread;

    @Override
    public void shouldRateLimit(RateLimitRequest request, StreamObserver<RateLimitResponse> out) {
      thread = Thread.currentThread().getName();
      out.onNext(RateLimitResponse.newBuilder().setOverallCode(RateLimitResponse.Code.OK).build());
      out.onCompleted();
    }
  }

  private static GrpcServer start(ThreadRecordingService service, GrpcTransportConfig transport) {
    GrpcServer server =
        new GrpcServer(
            new InetSocketAddress("127.0.0.1", 0),
            InsecureServerCredentials.create(),
            List.of(service.bindService()),
            new GrpcServer.Settings(2, ConnectionAge.defaults(), transport));
    server.start();
    server.setServing(true);
    return server;
  }

  private static GrpcTransportConfig transport(Transport transport, RlsHandlers handlers) {
    return new GrpcTransportConfig(
        transport, 1, GrpcTransportConfig.DEFAULT_FLOW_CONTROL_WINDOW, handlers);
  }

  /** Calls ShouldRateLimit, health and reflection once each and returns the handler's thread. */
  private static String callEverything(GrpcServer server, ThreadRecordingService service)
      throws Exception {
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    try {
      RateLimitResponse response =
          RateLimitServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .shouldRateLimit(RateLimitRequest.getDefaultInstance());
      assertThat(response.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
      assertThat(
              HealthGrpc.newBlockingStub(channel)
                  .withDeadlineAfter(10, TimeUnit.SECONDS)
                  .check(HealthCheckRequest.getDefaultInstance())
                  .getStatus())
          .isEqualTo(ServingStatus.SERVING);
      assertThat(listedServices(channel))
          .contains(RateLimitServiceGrpc.SERVICE_NAME, "grpc.health.v1.Health");
      return service.thread;
    } finally {
      channel.shutdownNow();
    }
  }

  private static String listedServices(ManagedChannel channel) throws Exception {
    CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
    StreamObserver<ServerReflectionRequest> requests =
        ServerReflectionGrpc.newStub(channel)
            .serverReflectionInfo(
                new StreamObserver<>() {
                  @Override
                  public void onNext(ServerReflectionResponse value) {
                    answer.complete(value);
                  }

                  @Override
                  public void onError(Throwable t) {
                    answer.completeExceptionally(t);
                  }

                  @Override
                  public void onCompleted() {}
                });
    requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
    requests.onCompleted();
    return answer.get(10, TimeUnit.SECONDS).getListServicesResponse().toString();
  }

  @Test
  void eventLoopHandlers_rlsCall_runsOnTheEventLoopWhileHealthAndReflectionAnswer()
      throws Exception {
    ThreadRecordingService service = new ThreadRecordingService();
    GrpcServer server = start(service, transport(Transport.AUTO, RlsHandlers.EVENT_LOOP));
    try {
      assertThat(callEverything(server, service)).startsWith("grpc-event-loop");
    } finally {
      server.stop(Duration.ofSeconds(5));
    }
  }

  @Test
  void pooledService_onADirectServer_runsOnThePoolInOrder() throws Exception {
    ThreadRecordingService service = new ThreadRecordingService();
    ExecutorService pool = Executors.newFixedThreadPool(2, new DaemonThreadFactory("test-pool"));
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .directExecutor()
            .addService(PooledService.on(pool, service.bindService()))
            .build()
            .start();
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
    try {
      for (int i = 0; i < 20; i++) {
        assertThat(
                RateLimitServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .shouldRateLimit(RateLimitRequest.getDefaultInstance())
                    .getOverallCode())
            .isEqualTo(RateLimitResponse.Code.OK);
        assertThat(service.thread).startsWith("test-pool");
      }
    } finally {
      channel.shutdownNow();
      server.shutdownNow();
      pool.shutdownNow();
    }
  }

  @Test
  void eventLoopHandlers_healthWatch_streamsEachChange() throws Exception {
    ThreadRecordingService service = new ThreadRecordingService();
    GrpcServer server = start(service, transport(Transport.AUTO, RlsHandlers.EVENT_LOOP));
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    BlockingQueue<ServingStatus> seen = new LinkedBlockingQueue<>();
    try {
      HealthGrpc.newStub(channel)
          .watch(
              HealthCheckRequest.getDefaultInstance(),
              new StreamObserver<>() {
                @Override
                public void onNext(HealthCheckResponse value) {
                  seen.add(value.getStatus());
                }

                @Override
                public void onError(Throwable t) {}

                @Override
                public void onCompleted() {}
              });
      assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo(ServingStatus.SERVING);
      server.setServing(false);
      assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo(ServingStatus.NOT_SERVING);
    } finally {
      channel.shutdownNow();
      server.stop(Duration.ofSeconds(5));
    }
  }

  @Test
  void poolHandlers_rlsCall_runsOnTheHandlerPool() throws Exception {
    ThreadRecordingService service = new ThreadRecordingService();
    GrpcServer server = start(service, transport(Transport.AUTO, RlsHandlers.POOL));
    try {
      assertThat(callEverything(server, service)).startsWith("grpc-handler");
    } finally {
      server.stop(Duration.ofSeconds(5));
    }
  }

  @Test
  void nioTransport_everyService_answers() throws Exception {
    ThreadRecordingService service = new ThreadRecordingService();
    GrpcServer server = start(service, transport(Transport.NIO, RlsHandlers.EVENT_LOOP));
    try {
      assertThat(callEverything(server, service)).startsWith("grpc-event-loop");
    } finally {
      server.stop(Duration.ofSeconds(5));
    }
  }

  @Test
  void grpcDefaults_everyService_answersOffSluicesThreads() throws Exception {
    ThreadRecordingService service = new ThreadRecordingService();
    GrpcServer server = GrpcServer.withGrpcDefaults(0, List.of(service.bindService())).start();
    server.setServing(true);
    try {
      assertThat(callEverything(server, service))
          .doesNotStartWith("grpc-event-loop")
          .doesNotStartWith("grpc-handler");
    } finally {
      server.stop(Duration.ofSeconds(5));
    }
  }

  @Test
  void stop_ownEventLoops_areShutDown() throws Exception {
    ThreadRecordingService service = new ThreadRecordingService();
    GrpcServer server = start(service, transport(Transport.AUTO, RlsHandlers.EVENT_LOOP));
    callEverything(server, service);
    server.stop(Duration.ofSeconds(5));
    // A thread ends a moment after its group terminates.
    Eventually.await(
        Duration.ofSeconds(10),
        "the event loop that ran the call to stop",
        () -> !alive(service.thread));
  }

  private static boolean alive(String threadName) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(thread -> thread.isAlive() && thread.getName().equals(threadName));
  }
}
