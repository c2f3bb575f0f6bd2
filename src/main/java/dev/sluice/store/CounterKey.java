package dev.sluice.store;

import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Window;
import dev.sluice.store.algorithm.CountingAlgorithm;
import java.util.List;

/**
 * Builds the identity of a counter. The key names the algorithm, the window ({@link
 * Window#keyPart}: its length in seconds, or a calendar unit and zone such as {@code
 * month@Europe/Berlin}), the domain and every entry, so a minute and an hour limit on the same
 * entries never share a counter, and changing a window's multiplier or zone starts new counters.
 * Each part is escaped ({@code %}, {@code |}, {@code =}), which makes the mapping injective: unlike
 * the reference's {@code _}-joined keys, entries ({@code a_b},{@code c}) and ({@code a},{@code
 * b_c}) cannot collide. Example: {@code fw|60|api|user=alice}.
 */
public final class CounterKey {
  private CounterKey() {}

  public static String of(String domain, List<Entry> entries, Limit limit) {
    if (entries.size() == 1 && !needsEscape(domain)) {
      Entry entry = entries.get(0);
      if (!needsEscape(entry.key())
          && !needsEscape(entry.value())
          && limit.window() instanceof Window.Fixed fixed) {
        // The usual descriptor, built in one exactly sized allocation: same key as below.
        return CountingAlgorithm.of(limit.algorithm()).keyTag()
            + '|'
            + fixed.lengthSeconds()
            + '|'
            + domain
            + '|'
            + entry.key()
            + '='
            + entry.value();
      }
    }
    StringBuilder key = new StringBuilder(32 + domain.length() + entries.size() * 24);
    key.append(CountingAlgorithm.of(limit.algorithm()).keyTag());
    key.append('|').append(limit.window().keyPart()).append('|');
    escape(domain, key);
    appendEntries(entries, key);
    return key.toString();
  }

  /**
   * The tag of a {@code rate_limits} descriptor: every limit's key extends it ({@link #ofSeveral}),
   * so on a cluster they share its hash tag. Example: {@code ml|api|user=alice}.
   */
  public static String group(String domain, List<Entry> entries) {
    StringBuilder key = new StringBuilder(32 + domain.length() + entries.size() * 24);
    key.append("ml|");
    escape(domain, key);
    appendEntries(entries, key);
    return key.toString();
  }

  /**
   * The counter of one limit of a {@code rate_limits} list: the group's tag, the algorithm and the
   * window. Example: {@code ml|api|user=alice|fw|1}. Never equal to a {@link #of} key (those start
   * with the algorithm's tag), and unique per limit because a list holds each window and algorithm
   * once.
   */
  public static String ofSeveral(String group, Limit limit) {
    return group
        + '|'
        + CountingAlgorithm.of(limit.algorithm()).keyTag()
        + '|'
        + limit.window().keyPart();
  }

  private static void appendEntries(List<Entry> entries, StringBuilder key) {
    for (Entry entry : entries) {
      key.append('|');
      escape(entry.key(), key);
      key.append('=');
      escape(entry.value(), key);
    }
  }

  private static void escape(String part, StringBuilder out) {
    if (!needsEscape(part)) {
      out.append(part);
      return;
    }
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      switch (c) {
        case '%' -> out.append("%25");
        case '|' -> out.append("%7C");
        case '=' -> out.append("%3D");
        default -> out.append(c);
      }
    }
  }

  private static boolean needsEscape(String part) {
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      if (c == '%' || c == '|' || c == '=') {
        return true;
      }
    }
    return false;
  }
}
