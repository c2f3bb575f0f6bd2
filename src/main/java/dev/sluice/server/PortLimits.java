package dev.sluice.server;

import dev.sluice.config.GrpcLimits;
import java.util.Objects;

/**
 * What one client may hold of a gRPC port, and where what the limits did is reported.
 *
 * @param limits calls per connection, connections, queued bytes, resets, header bytes
 * @param report counts each refusal and closed connection, and logs them without flooding
 */
public record PortLimits(GrpcLimits limits, TransportReport report) {
  public PortLimits {
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(report, "report");
  }

  /** The default limits, reported to metrics nobody scrapes. */
  public static PortLimits defaults() {
    return new PortLimits(GrpcLimits.defaults(), TransportReport.unexported());
  }
}
