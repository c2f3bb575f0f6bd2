package dev.sluice.store.redis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** Reads a test server's state the way an operator would: SCAN, INFO. */
final class RedisProbe {
  private static final Pattern CALLS =
      Pattern.compile("^cmdstat_(\\w+):calls=(\\d+)", Pattern.MULTILINE);
  private static final Pattern READS =
      Pattern.compile("^total_reads_processed:(\\d+)", Pattern.MULTILINE);

  private RedisProbe() {}

  /** Every key matching the glob {@code pattern}, through SCAN (never KEYS). */
  static List<String> scan(Jedis jedis, String pattern) {
    ScanParams params = new ScanParams().match(pattern).count(1000);
    List<String> keys = new ArrayList<>();
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = jedis.scan(cursor, params);
      keys.addAll(page.getResult());
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return keys;
  }

  /** One {@code INFO all} reply: server counters at one instant. */
  static Snapshot snapshot(Jedis jedis) {
    return new Snapshot(jedis.info("all"));
  }

  record Snapshot(String info) {
    /** Socket reads the server made: one per batch of commands a client sent at once. */
    long reads() {
      Matcher matcher = READS.matcher(info);
      if (!matcher.find()) {
        throw new IllegalStateException("no total_reads_processed in INFO");
      }
      return Long.parseLong(matcher.group(1));
    }

    /** Calls per command name (lowercase), from {@code INFO commandstats}. */
    Map<String, Long> calls() {
      Map<String, Long> calls = new HashMap<>();
      Matcher matcher = CALLS.matcher(info);
      while (matcher.find()) {
        calls.put(matcher.group(1), Long.parseLong(matcher.group(2)));
      }
      return calls;
    }

    /** How many more error replies starting with {@code code} (e.g. MOVED) by {@code later}. */
    long errorsUntil(Snapshot later, String code) {
      return later.errors(code) - errors(code);
    }

    private long errors(String code) {
      Matcher matcher =
          Pattern.compile("^errorstat_" + code + ":count=(\\d+)", Pattern.MULTILINE).matcher(info);
      return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    /** How many more times {@code command} ran by {@code later}. */
    long callsUntil(Snapshot later, String command) {
      return later.calls().getOrDefault(command, 0L) - calls().getOrDefault(command, 0L);
    }
  }
}
