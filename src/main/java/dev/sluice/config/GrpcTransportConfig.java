package dev.sluice.config;

import java.util.Locale;
import java.util.Objects;

/**
 * How the gRPC port moves bytes and which thread runs a call: the transport the server listens
 * with, its event-loop threads, the HTTP/2 flow-control window and where the RLS handler runs.
 *
 * @param transport the Netty transport ({@link Transport#AUTO}: native epoll where it loads)
 * @param eventLoops worker event-loop threads (one more accepts connections), at least 1
 * @param flowControlWindowBytes the HTTP/2 window each stream and the connection start with and
 *     keep topped up, at least 64 KiB (HTTP/2's own initial window)
 * @param rlsHandlers the thread that runs {@code ShouldRateLimit}
 */
public record GrpcTransportConfig(
    Transport transport, int eventLoops, int flowControlWindowBytes, RlsHandlers rlsHandlers) {
  /** HTTP/2's initial window; a smaller one would only slow a connection down. */
  public static final int MIN_FLOW_CONTROL_WINDOW = 65_535;

  /** grpc-java's default: a 1 MiB window is far more than 64 calls of ~100 bytes ever hold. */
  public static final int DEFAULT_FLOW_CONTROL_WINDOW =
      ServerSettings.GRPC_FLOW_CONTROL_WINDOW.defaultValue();

  public GrpcTransportConfig {
    Objects.requireNonNull(transport, "transport");
    if (eventLoops < 1) {
      throw new IllegalArgumentException("grpc event loops must be >= 1: " + eventLoops);
    }
    if (flowControlWindowBytes < MIN_FLOW_CONTROL_WINDOW) {
      throw new IllegalArgumentException(
          "grpc flow control window must be >= "
              + MIN_FLOW_CONTROL_WINDOW
              + " bytes: "
              + flowControlWindowBytes);
    }
    Objects.requireNonNull(rlsHandlers, "rlsHandlers");
  }

  /** The Netty transport. */
  public enum Transport {
    /** Native epoll when its library loads on this machine (Linux), else NIO, logged at start. */
    AUTO,
    /** The JDK's NIO selector everywhere. */
    NIO;

    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @throws IllegalArgumentException naming the value and the choices
     */
    public static Transport parse(String value) {
      return ConfigNames.parse(values(), Transport::configName, value, "grpc transport");
    }
  }

  /** Where {@code ShouldRateLimit} runs once its request has arrived. */
  public enum RlsHandlers {
    /**
     * {@link #EVENT_LOOP}, except with a Redis Cluster store ({@link #resolvedFor}): a stale slot
     * map is re-read on the request's thread (CLUSTER SLOTS, up to the Redis timeout), which must
     * not stall every connection of an event loop. A server given {@code AUTO} unresolved treats it
     * as {@link #EVENT_LOOP}.
     */
    AUTO,
    /**
     * On the connection's event loop, without a hand-off: the handler never blocks (the memory
     * store is a map update under a stripe lock, Redis is a queue offer to a lane).
     */
    EVENT_LOOP,
    /** On the {@code --grpc-threads} pool, as health and reflection always are: one hand-off. */
    POOL;

    public String configName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @throws IllegalArgumentException naming the value and the choices
     */
    public static RlsHandlers parse(String value) {
      return ConfigNames.parse(values(), RlsHandlers::configName, value, "grpc rls handlers");
    }
  }

  /** One event loop per core: each connection lives on one, and there is no more CPU to share. */
  public static int defaultEventLoops(int cores) {
    return Math.max(1, cores);
  }

  /** The tuned defaults for this machine. */
  public static GrpcTransportConfig defaults() {
    return new GrpcTransportConfig(
        Transport.AUTO,
        defaultEventLoops(Runtime.getRuntime().availableProcessors()),
        DEFAULT_FLOW_CONTROL_WINDOW,
        RlsHandlers.AUTO);
  }

  /** {@link RlsHandlers#AUTO} decided for {@code store}; any other choice as given. */
  public GrpcTransportConfig resolvedFor(StoreConfig store) {
    if (rlsHandlers != RlsHandlers.AUTO) {
      return this;
    }
    boolean cluster =
        store.kind() == StoreKind.REDIS && store.redis().endpoint() instanceof RedisEndpoint.Cluster
            || store
                .perSecondRedis()
                .map(redis -> redis.endpoint() instanceof RedisEndpoint.Cluster)
                .orElse(false);
    return toBuilder().rlsHandlers(cluster ? RlsHandlers.POOL : RlsHandlers.EVENT_LOOP).build();
  }

  /** A builder holding this configuration, to change some of its parts. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.transport = transport;
    builder.eventLoops = eventLoops;
    builder.flowControlWindowBytes = flowControlWindowBytes;
    builder.rlsHandlers = rlsHandlers;
    return builder;
  }

  /**
   * Collects the parts of a {@link GrpcTransportConfig}; {@link #build} validates them. Not
   * thread-safe.
   */
  public static final class Builder {
    private Transport transport;
    private int eventLoops;
    private int flowControlWindowBytes;
    private RlsHandlers rlsHandlers;

    private Builder() {}

    public Builder transport(Transport value) {
      this.transport = value;
      return this;
    }

    public Builder eventLoops(int value) {
      this.eventLoops = value;
      return this;
    }

    public Builder flowControlWindowBytes(int value) {
      this.flowControlWindowBytes = value;
      return this;
    }

    public Builder rlsHandlers(RlsHandlers value) {
      this.rlsHandlers = value;
      return this;
    }

    public GrpcTransportConfig build() {
      return new GrpcTransportConfig(transport, eventLoops, flowControlWindowBytes, rlsHandlers);
    }
  }
}
