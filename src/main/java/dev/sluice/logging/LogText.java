package dev.sluice.logging;

/**
 * Makes a caller-supplied string safe to put in a log line: control characters (CR, LF, tab, the
 * Unicode line and paragraph separators, ...) are written as escapes such as {@code \n} or {@code
 * \u2028}, so a value can never start a forged log line, and long values are cut.
 */
public final class LogText {
  /** Longest value kept; the rest is summarized as a count. */
  public static final int MAX_CHARS = 256;

  private LogText() {}

  /** {@code value} with control characters escaped and at most {@link #MAX_CHARS} kept. */
  public static String safe(String value) {
    if (value == null) {
      return "null";
    }
    int end = Math.min(value.length(), MAX_CHARS);
    StringBuilder out = new StringBuilder(end + 16);
    for (int i = 0; i < end; i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\\' -> out.append("\\\\");
        default -> {
          if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    if (value.length() > end) {
      out.append("...(").append(value.length() - end).append(" more chars)");
    }
    return out.toString();
  }

  /** {@link #safe} of {@code value.toString()}. */
  public static String safe(Object value) {
    return safe(value == null ? null : value.toString());
  }
}
