package dev.sluice.server;

/**
 * A limit of a gRPC port that acted on a client: the {@code reason} label of its metric, the line
 * it logs, and whether it refused one call or closed the whole connection.
 */
enum TransportLimit {
  MAX_CONCURRENT_CALLS(
      "max_concurrent_calls",
      false,
      "gRPC call refused: its connection already has --grpc-max-concurrent-calls-per-connection"
          + " calls open"),
  METADATA_SIZE(
      "metadata_size", false, "gRPC call refused: its headers are over --grpc-max-metadata-bytes"),
  METADATA_SIZE_CLOSE(
      "metadata_size",
      true,
      "gRPC connection closed: a call's headers are over 1.25 x --grpc-max-metadata-bytes"),
  MAX_CONNECTIONS(
      "max_connections",
      true,
      "gRPC connection refused: --grpc-max-connections connections are already open"),
  MAX_QUEUED_BYTES(
      "max_queued_bytes",
      true,
      "gRPC connection closed: it does not read its answers, and more than --grpc-max-queued-bytes"
          + " were queued for it"),
  STALLED("stalled", true, "gRPC connection closed: it has not read its answers for 30 s"),
  RESETS(
      "resets",
      true,
      "gRPC connection closed: it sent or provoked more stream resets than"
          + " --grpc-max-resets-per-second"),
  CONTROL_FRAMES(
      "control_frames",
      true,
      "gRPC connection closed: it does not read, and 10,000 control frames (pings, settings,"
          + " resets) were queued for it"),
  PROTOCOL_ERROR("protocol_error", true, "gRPC connection closed: HTTP/2 protocol error");

  private final String label;
  private final boolean closesConnection;
  private final String line;

  TransportLimit(String label, boolean closesConnection, String line) {
    this.label = label;
    this.closesConnection = closesConnection;
    this.line = line;
  }

  /** The metric's {@code reason} label. */
  String label() {
    return label;
  }

  /** True when the connection is closed; false when one call is refused. */
  boolean closesConnection() {
    return closesConnection;
  }

  /** What the log line says happened; also the kind lines are counted by. */
  String line() {
    return line;
  }
}
