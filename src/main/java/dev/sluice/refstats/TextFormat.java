package dev.sluice.refstats;

import java.util.Map;

/** Prometheus text format 0.0.4: label sets, escaping and numbers, written into a builder. */
final class TextFormat {
  /** The content type of the text format. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private TextFormat() {}

  /**
   * One sample line: {@code name{labels,extra="value"} number}.
   *
   * @param extra an extra label ({@code le}, {@code quantile}) after the series' own; null for none
   */
  static void sample(
      StringBuilder out,
      String name,
      Map<String, String> labels,
      String extra,
      String extraValue,
      double value) {
    out.append(name);
    if (!labels.isEmpty() || extra != null) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, String> label : labels.entrySet()) {
        first = label(out, first, label.getKey(), label.getValue());
      }
      if (extra != null) {
        label(out, first, extra, extraValue);
      }
      out.append('}');
    }
    out.append(' ').append(number(value)).append('\n');
  }

  private static boolean label(StringBuilder out, boolean first, String name, String value) {
    if (!first) {
      out.append(',');
    }
    out.append(name).append("=\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '"' -> out.append("\\\"");
        case '\n' -> out.append("\\n");
        default -> out.append(c);
      }
    }
    out.append('"');
    return false;
  }

  /** The {@code # HELP} and {@code # TYPE} lines of a family. */
  static void header(StringBuilder out, String name, String help, String type) {
    out.append("# HELP ").append(name).append(' ');
    for (int i = 0; i < help.length(); i++) {
      char c = help.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        default -> out.append(c);
      }
    }
    out.append('\n').append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  /** Whole numbers without a fraction (counts read {@code 5}, not {@code 5.0}). */
  static String number(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return Double.toString(value);
  }
}
