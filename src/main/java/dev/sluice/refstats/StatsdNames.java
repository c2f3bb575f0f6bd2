package dev.sluice.refstats;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The two text rules between a stat and its Prometheus name, as the reference applies them. */
final class StatsdNames {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

  private StatsdNames() {}

  /**
   * The reference's clean-up of a stats key before it names a stat: {@code :} and {@code |} (statsd
   * separators) become {@code _}, and so do the dots of anything shaped like an IPv4 address, so an
   * address stays one segment.
   */
  static String sanitize(String key) {
    String replaced = key.replace(':', '_').replace('|', '_');
    if (replaced.indexOf('.') < 0) {
      return replaced;
    }
    Matcher address = IPV4.matcher(replaced);
    StringBuilder out = new StringBuilder();
    while (address.find()) {
      address.appendReplacement(out, Matcher.quoteReplacement(address.group().replace('.', '_')));
    }
    address.appendTail(out);
    return out.toString();
  }

  /**
   * statsd_exporter's escaping of a metric name: each character other than {@code [a-zA-Z0-9_]}
   * becomes {@code _} (a run of dashes one {@code _}), and a leading digit gets a {@code _} before
   * it. Applied to unmatched names and to every mapped name.
   */
  static String escape(String name) {
    if (name.isEmpty()) {
      return name;
    }
    StringBuilder out = new StringBuilder(name.length() + 1);
    if (name.charAt(0) >= '0' && name.charAt(0) <= '9') {
      out.append('_');
    }
    int previous = -1;
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      i += Character.charCount(c);
      if (valid(c)) {
        out.appendCodePoint(c);
      } else if (!(c == '-' && previous == '-')) {
        out.append('_');
      } else {
        continue; // a dash after a dash: the run is already one '_'
      }
      previous = c;
    }
    return out.toString();
  }

  private static boolean valid(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
}
