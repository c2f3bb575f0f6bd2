package dev.sluice.server;

import dev.sluice.config.GrpcLimits;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelDuplexHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelFactory;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandler.Sharable;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.channel.ReflectiveChannelFactory;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The limits grpc-java has no setting for: connections open on the port ({@link
 * GrpcLimits#maxConnections}), and bytes queued for a connection that does not read ({@link
 * GrpcLimits#maxQueuedBytes}) and how long they may wait ({@link #STALL_LIMIT}).
 *
 * <p>The hook is the public {@code NettyServerBuilder.channelFactory}: the listening channel it
 * makes carries {@link Acceptor} ahead of Netty's own acceptor, so each accepted connection is
 * seen, counted or closed before grpc-java sets it up, and given {@link QueueCap} nearest the
 * socket, where every flush of every frame (encrypted, with TLS) passes.
 *
 * <p>Threads: {@link Acceptor} runs on the boss thread; {@link QueueCap} (one per connection), its
 * timer and the close listener on the connection's event loop. The open count is atomic because
 * both change it.
 */
final class ConnectionGuard {
  /**
   * How long a connection may stay unwritable (more than Netty's low-water mark, 32 KiB, waiting
   * for a client that does not read) before it is closed.
   */
  static final Duration STALL_LIMIT = Duration.ofSeconds(30);

  private final GrpcLimits limits;
  private final TransportReport report;
  private final AtomicInteger open = new AtomicInteger();
  private final Acceptor acceptor = new Acceptor();

  ConnectionGuard(GrpcLimits limits, TransportReport report) {
    this.limits = limits;
    this.report = report;
  }

  /** The handler a listening channel carries ahead of Netty's acceptor; one for all of them. */
  ChannelHandler acceptor() {
    return acceptor;
  }

  /** Listening channels of {@code type} that apply {@code limits} to what they accept. */
  static ChannelFactory<ServerChannel> channels(
      Class<? extends ServerChannel> type, GrpcLimits limits, TransportReport report) {
    ReflectiveChannelFactory<ServerChannel> plain = new ReflectiveChannelFactory<>(type);
    ConnectionGuard guard = new ConnectionGuard(limits, report);
    return () -> {
      ServerChannel channel = plain.newChannel();
      channel.pipeline().addLast(guard.acceptor());
      return channel;
    };
  }

  /**
   * Sees each accepted connection before Netty's acceptor registers it and grpc-java sets it up.
   */
  @Sharable
  private final class Acceptor extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object accepted) {
      Channel connection = (Channel) accepted;
      if (open.incrementAndGet() > limits.maxConnections()) {
        open.decrementAndGet();
        report.limitHit(
            TransportLimit.MAX_CONNECTIONS,
            connection.remoteAddress() + " (" + limits.maxConnections() + " open)");
        // Not registered with an event loop yet, so close() cannot run; this is what Netty's own
        // acceptor does with a connection it cannot register.
        connection.unsafe().closeForcibly();
        return;
      }
      report.connectionOpened();
      connection
          .closeFuture()
          .addListener(
              closed -> {
                open.decrementAndGet();
                report.connectionEnded();
              });
      connection.pipeline().addLast(new QueueCap());
      ctx.fireChannelRead(connection);
    }
  }

  /**
   * Closes a connection whose client does not take its answers: at once when more than {@link
   * GrpcLimits#maxQueuedBytes} wait for its socket (checked after each flush: what a flush leaves
   * behind is what the client has not taken), and when it has stayed above Netty's low-water mark
   * for {@link #STALL_LIMIT}. HTTP/2 DATA stops at Netty's high-water mark on its own; the bytes
   * bound the frames that do not (headers, resets, pings and settings acknowledgements), the time a
   * connection whose graceful close can never finish: grpc-java and Netty close a connection after
   * a protocol error only once their GOAWAY frame is written, which a client that does not read
   * never lets happen.
   *
   * <p>The close is {@code ctx.close()}, from this handler toward the socket: {@code
   * channel.close()} would start at grpc-java's handler, which again waits for its GOAWAY.
   */
  private final class QueueCap extends ChannelDuplexHandler {
    private ScheduledFuture<?> stallCheck;

    @Override
    public void flush(ChannelHandlerContext ctx) {
      ctx.flush();
      Channel channel = ctx.channel();
      if (channel.isWritable() || !channel.isOpen()) {
        return;
      }
      // Unwritable: what is queued is what must drain to become writable, plus the low mark.
      long queued = channel.bytesBeforeWritable() + channel.config().getWriteBufferLowWaterMark();
      if (queued > limits.maxQueuedBytes()) {
        close(ctx, TransportLimit.MAX_QUEUED_BYTES, queued + " bytes");
      }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (!ctx.channel().isWritable() && stallCheck == null) {
        // The connection's own event loop as timer, as grpc-java's keepalive uses: no hand-off.
        stallCheck =
            ctx.executor()
                .schedule(() -> closeIfStalled(ctx), STALL_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
      } else if (ctx.channel().isWritable() && stallCheck != null) {
        stallCheck.cancel(false);
        stallCheck = null;
      }
      ctx.fireChannelWritabilityChanged();
    }

    private void closeIfStalled(ChannelHandlerContext ctx) {
      stallCheck = null;
      if (!ctx.channel().isWritable() && ctx.channel().isOpen()) {
        close(ctx, TransportLimit.STALLED, "unwritable for " + STALL_LIMIT.toSeconds() + " s");
      }
    }

    private void close(ChannelHandlerContext ctx, TransportLimit limit, String detail) {
      report.limitHit(limit, ctx.channel().remoteAddress() + " (" + detail + ")");
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (stallCheck != null) {
        stallCheck.cancel(false);
      }
      ctx.fireChannelInactive();
    }
  }
}
