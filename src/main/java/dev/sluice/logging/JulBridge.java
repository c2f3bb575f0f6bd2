package dev.sluice.logging;

import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Routes {@code java.util.logging}, which grpc-java logs through, into SLF4J and so into logback:
 * its lines then take the configured format ({@code LOG_FORMAT=json} included) instead of JUL's
 * two-line console format on stderr. Levels stay logback's: the configurations' {@code
 * LevelChangePropagator} copies each configured level to the JUL logger of the same name, so JUL
 * does not even build a record logback would drop.
 */
public final class JulBridge {
  private JulBridge() {}

  /** Replaces JUL's console handler with the bridge; once, at process start, before any logging. */
  public static void install() {
    // Logback first: its LevelChangePropagator resets JUL's levels as it starts.
    LoggerFactory.getILoggerFactory();
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
  }
}
