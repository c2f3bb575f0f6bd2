package dev.sluice.service;

import dev.sluice.rules.Limit;
import java.time.Duration;
import java.time.Instant;

/**
 * Java values into protobuf fields, shared by Envoy's responses and the admin API so both render a
 * limit the same way.
 */
public final class ProtoValues {
  private ProtoValues() {}

  /**
   * Protobuf's uint32 travels in a Java int; values above 2^31-1 wrap and decode unsigned, and
   * anything above 2^32-1 is clamped to it rather than wrapped (never a plain {@code (int)} cast).
   */
  public static int uint32(long value) {
    return (int) Math.max(0, Math.min(value, Limit.MAX_UINT32));
  }

  public static com.google.protobuf.Duration duration(Duration duration) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(duration.getSeconds())
        .setNanos(duration.getNano())
        .build();
  }

  /** {@code micros} (at least 0) as a protobuf duration, without a {@link Duration} between. */
  public static com.google.protobuf.Duration durationOfMicros(long micros) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(micros / 1_000_000)
        .setNanos((int) (micros % 1_000_000) * 1000)
        .build();
  }

  public static com.google.protobuf.Timestamp timestamp(Instant instant) {
    return com.google.protobuf.Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }
}
