package dev.sluice.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Something that speaks just enough RESP to look like an old Redis: {@code INFO} reports the given
 * {@code redis_version}, every other command gets {@code +OK}. For the version check, since no
 * Redis 6 binary is at hand. One connection at a time, on a free loopback port.
 */
public final class FakeOldRedis implements AutoCloseable {
  private final ServerSocket server;
  private final String version;
  private final Thread acceptor;

  public FakeOldRedis(String version) {
    this.version = version;
    try {
      this.server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.acceptor = new Thread(this::serve, "fake-old-redis");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  private void serve() {
    while (!server.isClosed()) {
      try (Socket socket = server.accept()) {
        answer(socket);
      } catch (IOException e) {
        // the client hung up, or close() closed the server socket
      }
    }
  }

  private void answer(Socket socket) throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    OutputStream out = socket.getOutputStream();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      int parts = Integer.parseInt(line.substring(1));
      String command = "";
      for (int i = 0; i < parts; i++) {
        in.readLine(); // $length
        String part = in.readLine();
        if (i == 0) {
          command = part;
        }
      }
      String reply =
          command.equalsIgnoreCase("INFO")
              ? bulk("# Server\r\nredis_version:" + version + "\r\n")
              : "+OK\r\n";
      out.write(reply.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }
  }

  private static String bulk(String text) {
    return "$" + text.getBytes(StandardCharsets.UTF_8).length + "\r\n" + text + "\r\n";
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
