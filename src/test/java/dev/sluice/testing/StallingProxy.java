package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on a free loopback port in front of one server (a test's redis-server) that can
 * stall: while {@link #stall stalled}, what clients send is read and held, not forwarded, until
 * {@link #resume}; replies still flow. So a client's request written during a stall reaches the
 * server only after it, exactly once, as over a slow link. Two threads per connection, started
 * here: test code only.
 */
public final class StallingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final String upstreamHost;
  private final int upstreamPort;
  private final Object gate = new Object();
  private final AtomicLong heldBytes = new AtomicLong();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private boolean stalled; // guarded by gate

  private StallingProxy(String upstreamHost, int upstreamPort) throws IOException {
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.upstreamHost = upstreamHost;
    this.upstreamPort = upstreamPort;
  }

  /** A proxy to {@code host:port}, accepting at once. */
  public static StallingProxy to(String host, int port) {
    try {
      StallingProxy proxy = new StallingProxy(host, port);
      Thread acceptor = new Thread(proxy::accept, "stalling-proxy-accept");
      acceptor.setDaemon(true);
      acceptor.start();
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** From now on, holds what clients send. */
  public void stall() {
    synchronized (gate) {
      stalled = true;
    }
  }

  /** Forwards what was held, and everything after. */
  public void resume() {
    synchronized (gate) {
      stalled = false;
      gate.notifyAll();
    }
  }

  /** Bytes clients sent during the current stall, not yet forwarded. */
  public long heldBytes() {
    return heldBytes.get();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(upstreamHost, upstreamPort);
        sockets.add(client);
        sockets.add(server);
        pump(client, server, true);
        pump(server, client, false);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pump(Socket from, Socket to, boolean stallable) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream()) {
                OutputStream out = to.getOutputStream();
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                  if (stallable) {
                    waitWhileStalled(read);
                  }
                  out.write(buffer, 0, read);
                  out.flush();
                }
              } catch (IOException | InterruptedException e) {
                // A side closed: close the other too.
              } finally {
                closeQuietly(to);
                closeQuietly(from);
              }
            },
            "stalling-proxy-pump");
    thread.setDaemon(true);
    thread.start();
  }

  private void waitWhileStalled(int bytes) throws InterruptedException {
    synchronized (gate) {
      if (!stalled) {
        return;
      }
      heldBytes.addAndGet(bytes);
      while (stalled) {
        gate.wait();
      }
      heldBytes.addAndGet(-bytes);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    resume();
    closeQuietly(listener);
    sockets.forEach(StallingProxy::closeQuietly);
  }

  private static void closeQuietly(ServerSocket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
