package dev.sluice.server;

import io.grpc.netty.shaded.io.netty.buffer.Unpooled;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Exception;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Headers;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP/2 client written frame by frame, for attacks no well-behaved client library can make: it
 * opens a connection, announces a flow-control window of zero (so no response body can ever be sent
 * to it), then writes gRPC calls on streams 1, 3, 5, ... and never reads a byte. Header blocks are
 * HPACK literals without indexing (RFC 7541 6.2.2), so no encoder state is needed.
 *
 * <p>Not thread-safe: one thread writes; {@link #close} may be called from another to unblock it.
 */
final class RawHttp2Client implements AutoCloseable {
  private static final byte[] PREFACE =
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final int DATA = 0x0;
  private static final int HEADERS = 0x1;
  private static final int RST_STREAM = 0x3;
  private static final int SETTINGS = 0x4;
  private static final int END_STREAM = 0x1;
  private static final int END_HEADERS = 0x4;
  private static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
  private static final int CANCEL = 0x8;

  private final Socket socket;
  private final OutputStream out;
  private final DataInputStream in;
  private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false);
  private int nextStream = 1;

  private RawHttp2Client(Socket socket) throws IOException {
    this.socket = socket;
    this.out = socket.getOutputStream();
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
  }

  /** Connects and writes the preface and a SETTINGS frame with INITIAL_WINDOW_SIZE 0. */
  static RawHttp2Client connectWithZeroWindow(int port) throws IOException {
    return connect(port, new byte[] {0, SETTINGS_INITIAL_WINDOW_SIZE, 0, 0, 0, 0});
  }

  /** Connects and writes the preface and an empty SETTINGS frame: HTTP/2's default window. */
  static RawHttp2Client connect(int port) throws IOException {
    return connect(port, new byte[0]);
  }

  /**
   * {@link #connect} with a socket receive buffer of a few KiB, so the server's answers pile up in
   * its own buffers, not in this host's.
   */
  static RawHttp2Client connectWithSmallReceiveBuffer(int port) throws IOException {
    Socket socket = new Socket();
    socket.setReceiveBufferSize(4096);
    return handshake(socket, port, new byte[0]);
  }

  private static RawHttp2Client connect(int port, byte[] settings) throws IOException {
    return handshake(new Socket(), port, settings);
  }

  private static RawHttp2Client handshake(Socket socket, int port, byte[] settings)
      throws IOException {
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    RawHttp2Client client = new RawHttp2Client(socket);
    ByteArrayOutputStream hello = new ByteArrayOutputStream();
    hello.write(PREFACE);
    frame(hello, SETTINGS, 0, 0, settings);
    client.out.write(hello.toByteArray());
    client.out.flush();
    return client;
  }

  /**
   * Reads frames until each of the last {@code streams} streams opened has ended, and says how:
   * {@code "grpc-status N"} (in trailers or headers-only), {@code "http N"} (a non-200 status that
   * ends the stream) or {@code "RST_STREAM N"}. A stream still open when the server closes the
   * connection or {@code timeout} passes is missing from the answer.
   */
  Map<Integer, String> readEnds(int streams, Duration timeout) throws IOException {
    Map<Integer, String> ends = new LinkedHashMap<>();
    int first = nextStream - 2 * streams;
    long deadline = System.nanoTime() + timeout.toNanos();
    socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
    while (ends.size() < streams && System.nanoTime() < deadline) {
      Frame frame;
      try {
        frame = readFrame();
      } catch (EOFException | SocketException | SocketTimeoutException closed) {
        break;
      }
      if (frame.stream() >= first && !ends.containsKey(frame.stream())) {
        endOf(frame).ifPresent(end -> ends.put(frame.stream(), end));
      }
    }
    return ends;
  }

  /**
   * Reads and drops frames until the server closes the connection (true) or {@code timeout} passes
   * (false).
   */
  boolean closedByServer(Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
    while (System.nanoTime() < deadline) {
      try {
        readFrame();
      } catch (EOFException | SocketException closed) {
        return true;
      } catch (SocketTimeoutException open) {
        return false;
      }
    }
    return false;
  }

  private record Frame(int type, int flags, int stream, byte[] payload) {}

  private Frame readFrame() throws IOException {
    int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
    int type = in.readUnsignedByte();
    int flags = in.readUnsignedByte();
    int stream = in.readInt() & 0x7fff_ffff;
    byte[] payload = in.readNBytes(length);
    if (payload.length < length) {
      throw new EOFException();
    }
    return new Frame(type, flags, stream, payload);
  }

  /** How {@code frame} ends its stream, if it does. */
  private Optional<String> endOf(Frame frame) throws IOException {
    if (frame.type() == RST_STREAM) {
      return Optional.of("RST_STREAM " + ByteBuffer.wrap(frame.payload()).getInt());
    }
    if (frame.type() != HEADERS) {
      return Optional.empty();
    }
    // Always decoded, in order: HPACK's table changes with every block the server sends.
    Http2Headers headers;
    try {
      headers = decoder.decodeHeaders(frame.stream(), Unpooled.wrappedBuffer(frame.payload()));
    } catch (Http2Exception e) {
      throw new IOException("undecodable headers from the server", e);
    }
    CharSequence grpcStatus = headers.get("grpc-status");
    if (grpcStatus != null) {
      return Optional.of("grpc-status " + grpcStatus);
    }
    CharSequence status = headers.status();
    boolean ends = (frame.flags() & END_STREAM) != 0;
    return ends && status != null ? Optional.of("http " + status) : Optional.empty();
  }

  /**
   * Writes {@code calls} unary calls in one write: each a HEADERS frame and a DATA frame with
   * END_STREAM carrying {@code message} as one gRPC message.
   *
   * @param extra headers sent after the gRPC ones (e.g. a large metadata value)
   * @throws IOException when the server has closed the connection
   */
  void writeCalls(int calls, String path, byte[] message, Map<String, String> extra)
      throws IOException {
    byte[] block = headerBlock(path, extra);
    byte[] body = grpcMessage(message);
    ByteArrayOutputStream batch = new ByteArrayOutputStream(calls * (block.length + 40));
    for (int i = 0; i < calls; i++) {
      int stream = nextStream;
      nextStream += 2;
      frame(batch, HEADERS, END_HEADERS, stream, block);
      frame(batch, DATA, END_STREAM, stream, body);
    }
    out.write(batch.toByteArray());
    out.flush();
  }

  /**
   * Writes {@code frames} empty SETTINGS frames in one write; the server must acknowledge each with
   * a frame of its own, which a client that does not read leaves queued.
   *
   * @throws IOException when the server has closed the connection
   */
  void writeSettingsFrames(int frames) throws IOException {
    ByteArrayOutputStream batch = new ByteArrayOutputStream(frames * 9);
    for (int i = 0; i < frames; i++) {
      frame(batch, SETTINGS, 0, 0, new byte[0]);
    }
    out.write(batch.toByteArray());
    out.flush();
  }

  /**
   * Opens {@code calls} streams and cancels each at once (HEADERS, then RST_STREAM CANCEL): the
   * HTTP/2 "rapid reset" attack, in one write.
   *
   * @throws IOException when the server has closed the connection
   */
  void writeResetCalls(int calls, String path) throws IOException {
    byte[] block = headerBlock(path, Map.of());
    ByteArrayOutputStream batch = new ByteArrayOutputStream(calls * (block.length + 30));
    for (int i = 0; i < calls; i++) {
      int stream = nextStream;
      nextStream += 2;
      frame(batch, HEADERS, END_HEADERS, stream, block);
      frame(batch, RST_STREAM, 0, stream, new byte[] {0, 0, 0, CANCEL});
    }
    out.write(batch.toByteArray());
    out.flush();
  }

  /** Streams opened so far. */
  int streamsOpened() {
    return (nextStream - 1) / 2;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  private static byte[] headerBlock(String path, Map<String, String> extra) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(":method", "POST");
    headers.put(":scheme", "http");
    headers.put(":path", path);
    headers.put(":authority", "localhost");
    headers.put("content-type", "application/grpc");
    headers.put("te", "trailers");
    headers.putAll(extra);
    ByteArrayOutputStream block = new ByteArrayOutputStream();
    headers.forEach(
        (name, value) -> {
          block.write(0x00); // literal header field without indexing, new name
          string(block, name);
          string(block, value);
        });
    return block.toByteArray();
  }

  /** An HPACK string literal, not Huffman-coded: a 7-bit-prefix length, then the bytes. */
  private static void string(ByteArrayOutputStream block, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    integer(block, bytes.length);
    block.writeBytes(bytes);
  }

  /** RFC 7541 5.1 with a 7-bit prefix and the H bit clear. */
  private static void integer(ByteArrayOutputStream block, int value) {
    if (value < 127) {
      block.write(value);
      return;
    }
    block.write(127);
    int rest = value - 127;
    while (rest >= 128) {
      block.write((rest & 0x7f) | 0x80);
      rest >>>= 7;
    }
    block.write(rest);
  }

  /** The gRPC length-prefixed message: uncompressed flag, 4-byte length, bytes. */
  private static byte[] grpcMessage(byte[] message) {
    ByteArrayOutputStream body = new ByteArrayOutputStream(message.length + 5);
    body.write(0);
    writeInt(body, message.length);
    body.writeBytes(message);
    return body.toByteArray();
  }

  private static void frame(
      ByteArrayOutputStream out, int type, int flags, int stream, byte[] payload) {
    out.write(payload.length >>> 16);
    out.write(payload.length >>> 8);
    out.write(payload.length);
    out.write(type);
    out.write(flags);
    writeInt(out, stream & 0x7fff_ffff);
    out.writeBytes(payload);
  }

  private static void writeInt(ByteArrayOutputStream out, int value) {
    out.write(value >>> 24);
    out.write(value >>> 16);
    out.write(value >>> 8);
    out.write(value);
  }
}
