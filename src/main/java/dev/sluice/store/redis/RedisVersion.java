package dev.sluice.store.redis;

import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;

/** The server version check: Sluice's commands need Redis 7.0 ({@code EXPIRE ... NX}). */
final class RedisVersion {
  static final int NEEDED_MAJOR = 7;

  private RedisVersion() {}

  /** A server older than 7.0; permanent until the server is upgraded. */
  static final class TooOld extends JedisDataException {
    TooOld(String message) {
      super(message);
    }
  }

  /**
   * Reads {@code redis_version} from {@code INFO server}.
   *
   * @throws TooOld naming the version found and the version needed
   */
  static void check(Connection connection, String where) {
    connection.sendCommand(Protocol.Command.INFO, "server");
    String info = connection.getBulkReply();
    String version = field(info, "redis_version");
    if (major(version) < NEEDED_MAJOR) {
      throw new TooOld(
          "redis at "
              + where
              + " is version "
              + version
              + "; Sluice needs Redis "
              + NEEDED_MAJOR
              + ".0 or newer (it uses EXPIRE ... NX)");
    }
  }

  private static String field(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return "unknown";
  }

  /** The major version, or a large number when it cannot be read (do not block unknown forks). */
  static int major(String version) {
    int dot = version.indexOf('.');
    try {
      return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }
}
