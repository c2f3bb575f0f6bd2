package dev.sluice.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Error;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Exception;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Exception.HeaderListSizeException;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Exception.StreamException;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Turns grpc-java's reports of a client's HTTP/2 errors into {@link TransportReport} events: a
 * counted metric where a limit acted, and one line per kind per interval, without a stack trace.
 *
 * <p>Why a logback {@link TurboFilter} on the log records: grpc-java's Netty server handler reports
 * each stream it refuses or resets ({@code "Stream Error"}, WARNING, with the full stack trace) and
 * each connection it closes for a protocol error ({@code "Connection Error"}, FINE) only through
 * {@code java.util.logging}; its handler, encoder and connection are built inside grpc-java with no
 * public hook. Those records reach logback through jul-to-slf4j ({@link
 * dev.sluice.logging.JulBridge}); a turbo filter sees each one before a logging event is built,
 * with its throwable, whatever the log format, and can drop it. The records are classified by the
 * HTTP/2 error they carry (its type and error code), not by message text, except where grpc-java
 * and Netty give one error code several causes ({@code ENHANCE_YOUR_CALM}, {@code PROTOCOL_ERROR}).
 *
 * <p>Thread-safe: called on whichever thread logs, mostly event loops.
 */
final class TransportErrorFilter extends TurboFilter {
  /** grpc-java's Netty transport; the shading prefix comes with the class. */
  private static final String GRPC_NETTY = NettyServerBuilder.class.getPackageName() + ".";

  /** The logger grpc-java's server handler reports connection errors to, at FINE. */
  private static final String SERVER_HANDLER = GRPC_NETTY + "NettyServerHandler";

  private static final int CAUSES_SEARCHED = 4;

  private final TransportReport report;

  TransportErrorFilter(TransportReport report) {
    this.report = report;
  }

  /**
   * Adds a filter reporting to {@code report} to logback, and lets grpc-java's server handler log
   * at FINE so its connection errors reach it (every other FINE record of that logger is still
   * below logback's level and dropped). Without logback (a test's other binding) nothing happens.
   *
   * @return undoes both
   */
  static Runnable install(TransportReport report) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return () -> {};
    }
    TransportErrorFilter filter = new TransportErrorFilter(report);
    filter.setContext(context);
    filter.start();
    context.addTurboFilter(filter);
    // Held by the returned handle: java.util.logging keeps loggers weakly and would forget the
    // level if this logger were collected before grpc-java's class loads it.
    java.util.logging.Logger handlerLog = java.util.logging.Logger.getLogger(SERVER_HANDLER);
    java.util.logging.Level before = handlerLog.getLevel();
    handlerLog.setLevel(java.util.logging.Level.FINE);
    return () -> {
      context.getTurboFilterList().remove(filter);
      handlerLog.setLevel(before);
    };
  }

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    // First: every isDebugEnabled() in Netty's hot paths comes here with a null format.
    if (format == null || !logger.getName().startsWith(GRPC_NETTY)) {
      return FilterReply.NEUTRAL;
    }
    Http2Exception http2 = http2Cause(t);
    if (http2 != null) {
      return reported(level, http2);
    }
    if (t == null && level.isGreaterOrEqual(Level.WARN)) {
      // E.g. a client without "te: trailers", once per connection: a client can open many.
      report.protocolError("gRPC client warning", format);
      return FilterReply.DENY;
    }
    return FilterReply.NEUTRAL;
  }

  private FilterReply reported(Level level, Http2Exception http2) {
    String detail = http2.error() + ": " + http2.getMessage();
    TransportLimit limit = limitOf(http2);
    if (limit != null) {
      report.limitHit(limit, detail);
      return FilterReply.DENY;
    }
    if (level.isGreaterOrEqual(Level.WARN)) {
      report.protocolError("gRPC stream ended by an HTTP/2 error", detail);
      return FilterReply.DENY;
    }
    return FilterReply.NEUTRAL;
  }

  /** The limit that acted, or null for an error no limit names (a stream the client closed). */
  static TransportLimit limitOf(Http2Exception http2) {
    if (http2 instanceof HeaderListSizeException) {
      return TransportLimit.METADATA_SIZE;
    }
    if (http2 instanceof StreamException) {
      return http2.error() == Http2Error.REFUSED_STREAM
          ? TransportLimit.MAX_CONCURRENT_CALLS
          : null;
    }
    if (http2.error() == Http2Error.NO_ERROR) {
      return null;
    }
    String message = String.valueOf(http2.getMessage());
    if (http2.error() != Http2Error.ENHANCE_YOUR_CALM) {
      // Netty's HPACK decoder: far enough over the header limit, the connection goes too.
      return message.startsWith("Header size exceeded")
          ? TransportLimit.METADATA_SIZE_CLOSE
          : TransportLimit.PROTOCOL_ERROR;
    }
    if (message.contains("rststreams")) {
      return TransportLimit.RESETS;
    }
    return message.contains("control frames")
        ? TransportLimit.CONTROL_FRAMES
        : TransportLimit.PROTOCOL_ERROR;
  }

  private static Http2Exception http2Cause(Throwable t) {
    Throwable cause = t;
    for (int i = 0; cause != null && i < CAUSES_SEARCHED; i++) {
      if (cause instanceof Http2Exception http2) {
        return http2;
      }
      cause = cause.getCause();
    }
    return null;
  }
}
