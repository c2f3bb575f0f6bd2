package dev.sluice.store.redis;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;

/** Why a connection failed: in one line, and whether the address answers at all. */
final class ConnectFailures {
  private ConnectFailures() {}

  /**
   * Whether opening a connection failed because nothing answers at the address (refused, no route,
   * unknown host, or the TCP connect itself timed out), as opposed to a server that accepted the
   * connection and then was slow or refused the handshake.
   */
  static boolean unreachable(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (refusedOrSilent(cause)) {
        return true;
      }
      // Jedis tries each address of a host name and reports each failure as a suppressed one.
      for (Throwable attempt : cause.getSuppressed()) {
        if (unreachable(attempt)) {
          return true;
        }
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  private static boolean refusedOrSilent(Throwable cause) {
    return cause instanceof ConnectException
        || cause instanceof NoRouteToHostException
        || cause instanceof UnknownHostException
        || (cause instanceof SocketTimeoutException timeout
            && String.valueOf(timeout.getMessage()).toLowerCase(Locale.ROOT).contains("connect"));
  }

  /**
   * E.g. "Failed to connect to 127.0.0.1:7000: PKIX path building failed: ... unable to find valid
   * certification path to requested target". Messages from Jedis and the JDK name hosts and
   * reasons, never credentials.
   */
  static String describe(Throwable failure) {
    StringBuilder line = new StringBuilder(String.valueOf(failure.getMessage()));
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != failure
        && root.getMessage() != null
        && !line.toString().contains(root.getMessage())) {
      line.append(": ")
          .append(root.getClass().getSimpleName())
          .append(": ")
          .append(root.getMessage());
    }
    return line.toString().replace('\n', ' ');
  }
}
