package dev.sluice.rules;

/**
 * A descriptor value with {@code *} wildcards, each matching any run of characters (also none).
 * Compiled once at load so matching a request value allocates nothing.
 */
final class WildcardPattern {
  private final String pattern;
  private final String[] literals;
  private final int minLength;

  WildcardPattern(String pattern) {
    if (pattern.indexOf('*') < 0) {
      throw new IllegalArgumentException("not a wildcard pattern: " + pattern);
    }
    this.pattern = pattern;
    this.literals = pattern.split("\\*", -1);
    int length = 0;
    for (String literal : literals) {
      length += literal.length();
    }
    this.minLength = length;
  }

  String pattern() {
    return pattern;
  }

  /** The literal before the first {@code *}; empty when the pattern starts with one. */
  String prefix() {
    return literals[0];
  }

  /** The literal after the last {@code *}; empty when the pattern ends with one. */
  String suffix() {
    return literals[literals.length - 1];
  }

  /** True when the literals between the stars appear in order, anchored at both ends. */
  boolean matches(String value) {
    if (value.length() < minLength) {
      return false;
    }
    String first = literals[0];
    String last = literals[literals.length - 1];
    if (!value.startsWith(first) || !value.endsWith(last)) {
      return false;
    }
    int from = first.length();
    int end = value.length() - last.length();
    for (int i = 1; i < literals.length - 1; i++) {
      int at = value.indexOf(literals[i], from);
      if (at < 0 || at + literals[i].length() > end) {
        return false;
      }
      from = at + literals[i].length();
    }
    return true;
  }
}
