package dev.sluice.store.redis;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * Connects Jedis to a unix domain socket (junixsocket's {@link AFUNIXSocket}, a {@link Socket} with
 * working timeouts, which the JDK's unix channels do not offer as a socket).
 */
final class UnixSocketFactory implements JedisSocketFactory {
  private final Path path;
  private final int timeoutMillis;

  UnixSocketFactory(Path path, int timeoutMillis) {
    this.path = path;
    this.timeoutMillis = timeoutMillis;
  }

  @Override
  public Socket createSocket() {
    AFUNIXSocket socket = null;
    try {
      socket = AFUNIXSocket.newInstance();
      socket.connect(AFUNIXSocketAddress.of(path), timeoutMillis);
      socket.setSoTimeout(timeoutMillis);
      return socket;
    } catch (IOException e) {
      if (socket != null) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // already failing
        }
      }
      throw new JedisConnectionException(
          "cannot connect to unix socket " + path + ": " + e.getMessage(), e);
    }
  }
}
