package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * HTTP/1.1 bytes written by hand on a plain socket, for what a well-behaved client never sends:
 * headers announcing a body that never comes, a request cut in the middle.
 */
public final class RawHttp {
  private RawHttp() {}

  /**
   * Sends {@code request} as it is and returns the start of what the server answers within {@code
   * wait}: the first bytes of the answer, {@code "closed"} when the server closed the connection
   * without one, or {@code "no answer"} when it said nothing.
   */
  public static String exchange(int port, String request, Duration wait) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout((int) wait.toMillis());
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      return read(socket.getInputStream());
    } catch (SocketTimeoutException e) {
      return "no answer";
    }
  }

  /** The first bytes {@code in} delivers, or {@code "closed"} at its end. */
  public static String read(InputStream in) throws IOException {
    byte[] answer = new byte[2048];
    int read = in.read(answer);
    return read < 0 ? "closed" : new String(answer, 0, read, StandardCharsets.US_ASCII);
  }
}
