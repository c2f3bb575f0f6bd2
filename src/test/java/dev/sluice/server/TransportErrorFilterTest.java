package dev.sluice.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.testing.FakeClock;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Error;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Exception;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The HTTP/2 errors grpc-java reports, as its Netty server handler builds them, classified into the
 * limit that acted, counted, and their log records dropped in favour of {@link TransportReport}'s
 * lines.
 */
class TransportErrorFilterTest {
  private static final String HANDLER = "io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler";

  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());
  private final TransportErrorFilter filter =
      new TransportErrorFilter(
          new TransportReport(metrics.grpcTransport(), FakeClock.atEpochSecond(1_700_000_000L)));
  private final LoggerContext context = new LoggerContext();

  private static Http2Exception refusedStream() {
    return Http2Exception.streamError(
        2001,
        Http2Error.REFUSED_STREAM,
        "Maximum active streams violated for this endpoint: %d",
        1000);
  }

  private static Http2Exception tooManyResets() {
    return new Http2Exception(Http2Error.ENHANCE_YOUR_CALM, "too_many_rststreams");
  }

  @Test
  void limitOf_eachErrorGrpcJavaReports_theLimitThatActed() throws Http2Exception {
    assertThat(
            TransportErrorFilter.limitOf(
                Http2Exception.headerListSizeError(
                    3,
                    Http2Error.PROTOCOL_ERROR,
                    true,
                    "Header size exceeded max allowed size (%d)",
                    8192)))
        .isEqualTo(TransportLimit.METADATA_SIZE);
    assertThat(TransportErrorFilter.limitOf(refusedStream()))
        .isEqualTo(TransportLimit.MAX_CONCURRENT_CALLS);
    assertThat(TransportErrorFilter.limitOf(tooManyResets())).isEqualTo(TransportLimit.RESETS);
    assertThat(
            TransportErrorFilter.limitOf(
                Http2Exception.connectionError(
                    Http2Error.ENHANCE_YOUR_CALM,
                    "Maximum number %d of outstanding control frames reached",
                    10000)))
        .isEqualTo(TransportLimit.CONTROL_FRAMES);
    assertThat(
            TransportErrorFilter.limitOf(
                Http2Exception.connectionError(
                    Http2Error.PROTOCOL_ERROR, "Stream %d does not exist", 2001)))
        .isEqualTo(TransportLimit.PROTOCOL_ERROR);
    assertThat(
            TransportErrorFilter.limitOf(
                Http2Exception.connectionError(
                    Http2Error.PROTOCOL_ERROR,
                    "Header size exceeded max allowed size (%d)",
                    10240)))
        .isEqualTo(TransportLimit.METADATA_SIZE_CLOSE);
  }

  @Test
  void limitOf_errorsNoLimitNames_none() {
    assertThat(
            TransportErrorFilter.limitOf(
                Http2Exception.streamError(
                    3, Http2Error.STREAM_CLOSED, "Stream closed before write could take place")))
        .isNull();
    assertThat(
            TransportErrorFilter.limitOf(
                Http2Exception.connectionError(Http2Error.NO_ERROR, "graceful")))
        .isNull();
  }

  @Test
  void decide_streamErrorOfALimit_droppedAndCounted() throws IOException {
    FilterReply reply =
        filter.decide(null, grpcLogger(), Level.WARN, "Stream Error", null, refusedStream());

    assertThat(reply).isEqualTo(FilterReply.DENY);
    assertThat(scrape()).contains("sluice_grpc_refused_total{reason=\"max_concurrent_calls\"} 1.0");
  }

  @Test
  void decide_connectionErrorAtFine_droppedAndCounted() throws IOException {
    FilterReply reply =
        filter.decide(null, grpcLogger(), Level.DEBUG, "Connection Error", null, tooManyResets());

    assertThat(reply).isEqualTo(FilterReply.DENY);
    assertThat(scrape()).contains("sluice_grpc_connections_closed_total{reason=\"resets\"} 1.0");
  }

  @Test
  void decide_errorWrappedInAnother_foundByItsCause() throws IOException {
    FilterReply reply =
        filter.decide(
            null,
            grpcLogger(),
            Level.WARN,
            "Stream Error",
            null,
            new IllegalStateException("wrapped", refusedStream()));

    assertThat(reply).isEqualTo(FilterReply.DENY);
    assertThat(scrape()).contains("sluice_grpc_refused_total{reason=\"max_concurrent_calls\"} 1.0");
  }

  @Test
  void decide_warningWithoutThrowable_droppedForARepeatedLine() {
    assertThat(
            filter.decide(
                null, grpcLogger(), Level.WARN, "Expected header TE: trailers", null, null))
        .isEqualTo(FilterReply.DENY);
  }

  @Test
  void decide_whatIsNotATransportError_leftToTheLevels() {
    Logger grpc = grpcLogger();
    Logger ours = context.getLogger("dev.sluice.Sluice");

    assertThat(filter.decide(null, grpc, Level.DEBUG, null, null, null))
        .as("an isDebugEnabled() check")
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(filter.decide(null, ours, Level.WARN, "Stream Error", null, refusedStream()))
        .as("another logger")
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(
            filter.decide(
                null, grpc, Level.INFO, "Transport failed", null, new IOException("reset")))
        .as("an I/O error")
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(
            filter.decide(
                null,
                grpc,
                Level.DEBUG,
                "Stream Error",
                null,
                Http2Exception.streamError(3, Http2Error.STREAM_CLOSED, "closed")))
        .as("a FINE stream error no limit names")
        .isEqualTo(FilterReply.NEUTRAL);
  }

  private Logger grpcLogger() {
    return context.getLogger(HANDLER);
  }

  private String scrape() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8);
  }
}
