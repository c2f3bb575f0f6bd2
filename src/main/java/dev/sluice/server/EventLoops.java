package dev.sluice.server;

import dev.sluice.config.GrpcTransportConfig;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gRPC server's own Netty threads: one that accepts connections ({@code <name>-boss}) and a fixed
 * number that read, decode and write them ({@code <name>-event-loop}), on native epoll where its
 * library loads, else on NIO. Owned by one server and shut down after it.
 *
 * <p>The threads come from Netty's factory, not {@link dev.sluice.threads.DaemonThreadFactory}: its
 * {@code FastThreadLocalThread}s keep the pooled buffer allocator's per-thread caches on a field
 * instead of in a {@code ThreadLocal} map. They are daemons too.
 */
record EventLoops(
    String transportName,
    EventLoopGroup boss,
    EventLoopGroup workers,
    Class<? extends ServerChannel> channelType) {
  private static final Logger log = LoggerFactory.getLogger(EventLoops.class);

  static EventLoops open(String name, GrpcTransportConfig settings) {
    ThreadFactory bossThreads = new DefaultThreadFactory(name + "-boss", true);
    ThreadFactory workerThreads = new DefaultThreadFactory(name + "-event-loop", true);
    int workers = settings.eventLoops();
    if (settings.transport() == GrpcTransportConfig.Transport.AUTO && Epoll.isAvailable()) {
      log.info("{}: native epoll transport, {} event loop(s)", name, workers);
      return new EventLoops(
          "epoll",
          new EpollEventLoopGroup(1, bossThreads),
          new EpollEventLoopGroup(workers, workerThreads),
          EpollServerSocketChannel.class);
    }
    if (settings.transport() == GrpcTransportConfig.Transport.AUTO) {
      log.info(
          "{}: NIO transport, {} event loop(s); native epoll unavailable: {}",
          name,
          workers,
          String.valueOf(Epoll.unavailabilityCause()));
    } else {
      log.info("{}: NIO transport (--grpc-transport nio), {} event loop(s)", name, workers);
    }
    return new EventLoops(
        "nio",
        new NioEventLoopGroup(1, bossThreads),
        new NioEventLoopGroup(workers, workerThreads),
        NioServerSocketChannel.class);
  }

  /** Stops the threads once the server has terminated; waits at most about a second. */
  void close() {
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    boss.terminationFuture().awaitUninterruptibly(2, TimeUnit.SECONDS);
    workers.terminationFuture().awaitUninterruptibly(2, TimeUnit.SECONDS);
  }
}
