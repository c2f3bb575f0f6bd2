package dev.sluice.rules.xds;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.Code;
import dev.sluice.config.XdsConfig;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleDocument;
import dev.sluice.rules.load.RuleLoader;
import dev.sluice.rules.load.RuleProblem;
import dev.sluice.rules.load.RuleReloader;
import dev.sluice.rules.xds.v3.RateLimitConfig;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Subscribes to {@code RateLimitConfig} resources on a management server's ADS stream (state of the
 * world: every response holds every domain) and serves each valid response through {@link
 * RuleReloader#apply}, then ACKs it. An invalid response is NACKed with every problem in {@code
 * error_detail} and the rules being served stay. A lost stream keeps the last rules and is reopened
 * after {@link ReconnectBackoff}'s wait, telling the server the last accepted version.
 *
 * <p>All stream callbacks and reconnects run on the one scheduler given, one at a time, so the
 * stream state needs no lock; {@link #hasReceivedRules} is a volatile read.
 */
public final class XdsRuleClient implements AutoCloseable {
  /** The resource type, as the reference and Envoy Gateway name it. */
  public static final String TYPE_URL =
      "type.googleapis.com/ratelimit.config.ratelimit.v3.RateLimitConfig";

  private static final Logger log = LoggerFactory.getLogger(XdsRuleClient.class);

  private final XdsConfig config;
  private final RuleLoader loader;
  private final RuleReloader reloader;
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
  private final ScheduledExecutorService scheduler;
  private final ManagedChannel channel;
  private final Node node;
  private final ReconnectBackoff backoff;
  private volatile boolean receivedRules;
  private volatile boolean closed;
  private String acceptedVersion = "";
  private StreamObserver<DiscoveryRequest> requests;

  /**
   * @param channel to the management server, built by {@link XdsChannels#open}; closed with this
   * @param scheduler runs every callback and reconnect; owned by the caller
   * @throws IllegalArgumentException when the node metadata is not a JSON object
   */
  public XdsRuleClient(
      XdsConfig config,
      RuleLoader loader,
      RuleReloader reloader,
      ManagedChannel channel,
      ScheduledExecutorService scheduler) {
    this.config = config;
    this.loader = loader;
    this.reloader = reloader;
    this.channel = channel;
    this.scheduler = scheduler;
    this.node = node(config);
    this.backoff = new ReconnectBackoff(config.backoff(), ThreadLocalRandom.current()::nextDouble);
  }

  /** Opens the stream; returns at once, the first rules arrive later. */
  public void start() {
    scheduler.execute(this::connect);
  }

  /** True once a valid snapshot has been served; stays true when the server goes away. */
  public boolean hasReceivedRules() {
    return receivedRules;
  }

  private void connect() {
    if (closed) {
      return;
    }
    log.info("xds: subscribing to {} on {} as node '{}'", TYPE_URL, config.server(), node.getId());
    requests =
        AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new Stream());
    // The node goes only on the first request of a stream; the version tells a server we come
    // back to what we already serve.
    requests.onNext(request().setNode(node).setVersionInfo(acceptedVersion).build());
  }

  /** Callbacks of one stream; they run on the scheduler (the channel's executor). */
  private final class Stream implements StreamObserver<DiscoveryResponse> {
    @Override
    public void onNext(DiscoveryResponse response) {
      backoff.reset();
      if (!TYPE_URL.equals(response.getTypeUrl())) {
        log.warn("xds: ignoring a response of type {}", response.getTypeUrl());
        return;
      }
      answer(response);
    }

    @Override
    public void onError(Throwable t) {
      lost(t.toString());
    }

    @Override
    public void onCompleted() {
      lost("the server closed the stream");
    }
  }

  private void answer(DiscoveryResponse response) {
    String version = response.getVersionInfo();
    LoadResult result = load(response);
    String from = "xds server " + config.server() + " (version " + version + ")";
    if (reloader.apply(result, from) == RuleReloader.Outcome.REJECTED) {
      String detail = describe(((LoadResult.Failed) result).problems());
      requests.onNext(nack(response, detail));
      return;
    }
    acceptedVersion = version;
    receivedRules = true;
    requests.onNext(
        request().setVersionInfo(version).setResponseNonce(response.getNonce()).build());
  }

  private LoadResult load(DiscoveryResponse response) {
    List<RuleDocument> documents = new ArrayList<>();
    List<RuleProblem> problems = new ArrayList<>();
    for (int i = 0; i < response.getResourcesCount(); i++) {
      Any resource = response.getResources(i);
      try {
        documents.add(RateLimitConfigDocuments.of(resource.unpack(RateLimitConfig.class), i));
      } catch (InvalidProtocolBufferException e) {
        String message = "not a RateLimitConfig (" + resource.getTypeUrl() + "): " + e.getMessage();
        problems.add(new RuleProblem(java.nio.file.Path.of("xds:resource#" + i), 0, message));
      }
    }
    if (!problems.isEmpty()) {
      return new LoadResult.Failed(problems);
    }
    return loader.load(documents, response.getVersionInfo());
  }

  private DiscoveryRequest nack(DiscoveryResponse response, String detail) {
    return request()
        .setVersionInfo(acceptedVersion)
        .setResponseNonce(response.getNonce())
        .setErrorDetail(
            com.google.rpc.Status.newBuilder()
                .setCode(Code.INVALID_ARGUMENT_VALUE)
                .setMessage(detail))
        .build();
  }

  private static String describe(List<RuleProblem> problems) {
    return problems.stream().map(RuleProblem::toString).collect(Collectors.joining("; "));
  }

  private void lost(String why) {
    if (closed) {
      return;
    }
    Duration wait = backoff.next();
    log.warn(
        "xds: stream to {} lost ({}); still serving version {}, reconnecting in {} ms",
        config.server(),
        why,
        reloader.current().version(),
        wait.toMillis());
    scheduler.schedule(this::connect, wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  private static DiscoveryRequest.Builder request() {
    return DiscoveryRequest.newBuilder().setTypeUrl(TYPE_URL);
  }

  private static Node node(XdsConfig config) {
    Struct.Builder metadata = Struct.newBuilder();
    try {
      JsonFormat.parser().merge(config.nodeMetadataJson(), metadata);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "xds node metadata must be a JSON object: " + e.getMessage(), e);
    }
    return Node.newBuilder()
        .setId(config.nodeId())
        .setMetadata(metadata)
        .setUserAgentName("sluice")
        .build();
  }

  /**
   * Cancels the stream and waits (up to {@link #CLOSE_WAIT}) for the channel to finish. The channel
   * delivers its last callbacks on {@code scheduler}, which the root shuts down right after this
   * returns: without the wait they were rejected and gRPC logged each rejection as an uncaught
   * exception. Called by the thread that closes Sluice, never on {@code scheduler}.
   */
  @Override
  public void close() {
    closed = true;
    channel.shutdownNow();
    try {
      channel.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
