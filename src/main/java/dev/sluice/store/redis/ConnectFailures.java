package dev.sluice.store.redis;

/** One line saying why a connection failed, from the outermost message to the root cause's. */
final class ConnectFailures {
  private ConnectFailures() {}

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
