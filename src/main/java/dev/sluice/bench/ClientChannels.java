package dev.sluice.bench;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.EventLoop;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The load generator's channels, each on an event loop of its own (native epoll where it loads,
 * else NIO), so that whatever is sent from that event loop needs no hand-off: the open loop's pacer
 * runs there ({@link #eventLoop}) and writes without waking another thread. Sending from any other
 * thread costs a wake-up of the channel's event loop per request, which on a load generator pinned
 * to one core took most of its CPU and made it, not the server, the tail.
 */
final class ClientChannels implements AutoCloseable {
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final List<EventLoopGroup> groups = new ArrayList<>();

  ClientChannels(Target target, int count) {
    boolean epoll = Epoll.isAvailable();
    Class<? extends Channel> type = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    for (int i = 0; i < count; i++) {
      DefaultThreadFactory threads = new DefaultThreadFactory("bench-client-" + i, true);
      EventLoopGroup group =
          epoll ? new EpollEventLoopGroup(1, threads) : new NioEventLoopGroup(1, threads);
      groups.add(group);
      ManagedChannel channel =
          NettyChannelBuilder.forAddress(target.host(), target.port())
              .usePlaintext()
              .directExecutor()
              // Retries wrap every call in a buffering RetriableStream (grpc-java's default);
              // a load generator reports a failure, it never resends.
              .disableRetry()
              .eventLoopGroup(group)
              .channelType(type)
              .build();
      channel.getState(true); // start connecting now, not on the first measured request
      channels.add(channel);
    }
  }

  List<ManagedChannel> channels() {
    return channels;
  }

  /** The one thread that runs channel {@code index}'s I/O and its answers' callbacks. */
  EventLoop eventLoop(int index) {
    return groups.get(index).next();
  }

  @Override
  public void close() {
    channels.forEach(ManagedChannel::shutdownNow);
    groups.forEach(group -> group.shutdownGracefully(0, 1, TimeUnit.SECONDS));
  }
}
