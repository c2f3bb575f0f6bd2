package dev.sluice.peer;

import java.util.HashMap;
import java.util.Map;
import redis.clients.jedis.Jedis;

/**
 * What Redis says it has done so far ({@code INFO}): CPU seconds, commands, and reads (each read
 * from a client socket is one round trip's request arriving, however many commands it holds).
 */
record RedisInfo(double cpuSeconds, long commands, long reads) {
  static RedisInfo of(Jedis jedis) {
    Map<String, String> fields = new HashMap<>();
    for (String line : jedis.info().split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    return new RedisInfo(
        Double.parseDouble(fields.get("used_cpu_sys"))
            + Double.parseDouble(fields.get("used_cpu_user")),
        Long.parseLong(fields.get("total_commands_processed")),
        Long.parseLong(fields.getOrDefault("total_reads_processed", "-1")));
  }

  /** What happened from {@code before} to this, less the one INFO command that read this. */
  RedisInfo since(RedisInfo before) {
    return new RedisInfo(
        cpuSeconds - before.cpuSeconds, commands - before.commands - 1, reads - before.reads - 1);
  }
}
