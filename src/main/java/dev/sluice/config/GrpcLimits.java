package dev.sluice.config;

/**
 * What one client may hold of a gRPC port before it is refused or closed. Envoy keeps a few
 * long-lived HTTP/2 connections and reads its answers at once, so a well-behaved client never comes
 * near any of these; they stop a single hostile connection (or a crowd of them) from filling the
 * heap.
 *
 * @param maxConcurrentCallsPerConnection calls open at once on one connection (HTTP/2
 *     MAX_CONCURRENT_STREAMS, announced to the client); a stream beyond it is refused
 * @param maxConnections connections open at once on the port; one more is closed as it is accepted
 * @param maxQueuedBytes bytes written to one connection and not yet taken by its socket (the client
 *     does not read); above it the connection is closed. At least {@link #MIN_QUEUED_BYTES}: below
 *     that even a reading client's answers could trip it
 * @param maxResetsPerSecond RST_STREAM frames a connection may send, or make the server send by
 *     breaking the protocol, averaged over {@link #RESET_WINDOW_SECONDS} (the HTTP/2 "rapid reset"
 *     attacks); above it the connection is closed. 0 = no limit
 * @param maxMetadataBytes bytes of one call's headers (HTTP/2 MAX_HEADER_LIST_SIZE); a call with
 *     more is refused
 */
public record GrpcLimits(
    int maxConcurrentCallsPerConnection,
    int maxConnections,
    int maxQueuedBytes,
    int maxResetsPerSecond,
    int maxMetadataBytes) {
  /** Two high-water marks of Netty's write buffer (64 KiB each). */
  public static final int MIN_QUEUED_BYTES = 128 * 1024;

  /** The window the reset limit counts over; a burst within it is allowed. */
  public static final int RESET_WINDOW_SECONDS = 10;

  /** The smallest header budget that still fits gRPC's own headers and a trace context. */
  public static final int MIN_METADATA_BYTES = 1024;

  public GrpcLimits {
    atLeast("grpc max concurrent calls per connection", maxConcurrentCallsPerConnection, 1);
    atLeast("grpc max connections", maxConnections, 1);
    atLeast("grpc max queued bytes", maxQueuedBytes, MIN_QUEUED_BYTES);
    atLeast("grpc max resets per second", maxResetsPerSecond, 0);
    atLeast("grpc max metadata bytes", maxMetadataBytes, MIN_METADATA_BYTES);
  }

  /**
   * 100 calls per connection; 10,000 connections; 1 MiB queued; 1,000 resets per second;
   * grpc-java's 8 KiB of headers.
   *
   * <p>Why 100 calls: it is what HTTP/2 clients assume before they read the server's SETTINGS
   * (Envoy's two codecs, nghttp2 and oghttp2, h2load's nghttp2 and Go's client; grpc-java waits for
   * SETTINGS), so an honest client's first burst is never refused, and a refused stream costs its
   * whole connection (Netty closes it on the stream's DATA). Any higher and a client holding more
   * calls than Sluice answers within Envoy's 20 ms leaves them waiting unread in the connection,
   * where a relative {@code grpc-timeout} cannot see them: at 1,000 per connection, no answer of an
   * overloaded server came back in time (BENCHMARKS.md, the overload table). Envoy opens another
   * connection when one is full.
   */
  public static GrpcLimits defaults() {
    return new GrpcLimits(100, 10_000, 1 << 20, 1_000, 8 * 1024);
  }

  private static void atLeast(String name, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(name + " must be >= " + min + ": " + value);
    }
  }
}
