package dev.sluice.refstats;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A mapping's {@code name} or label value with its references to what the match captured, parsed
 * once. A glob mapping's references follow statsd_exporter's glob formatter ({@code $1}, {@code
 * ${1}}; any other reference, such as {@code $1_x} or {@code $9} beyond the captures, is empty); a
 * regex mapping's follow Go's {@code Regexp.Expand} ({@code $1}, {@code ${1}}, {@code $name},
 * {@code $$}; {@code $1x} names the group {@code 1x}, so it too is empty). Immutable.
 */
final class Template {
  private static final Pattern GLOB_REFERENCE = Pattern.compile("\\$\\{?([a-zA-Z0-9_$]+)\\}?");

  /** What a match captured, for {@link #format}. */
  interface Groups {
    /** Group {@code number}'s text; empty for a group that took no part in the match. */
    String number(int number);

    /** The named group's text; empty likewise. */
    String named(String name);
  }

  private sealed interface Part permits Literal, Group, Named {}

  private record Literal(String text) implements Part {}

  /** A captured group: 1-based for a glob's {@code *}s, Java's group number for a regex. */
  private record Group(int number) implements Part {}

  private record Named(String name) implements Part {}

  private final List<Part> parts;

  private Template(List<Part> parts) {
    this.parts = List.copyOf(parts);
  }

  /**
   * @param captures how many {@code *} the glob has
   */
  static Template glob(String text, int captures) {
    List<Part> parts = new ArrayList<>();
    Matcher reference = GLOB_REFERENCE.matcher(text);
    int end = 0;
    while (reference.find()) {
      literal(parts, text.substring(end, reference.start()));
      int number = globNumber(reference.group(1));
      if (number >= 1 && number <= captures) {
        parts.add(new Group(number));
      }
      end = reference.end();
    }
    literal(parts, text.substring(end));
    return new Template(parts);
  }

  /** Go's {@code strconv.Atoi} on the reference's characters; -1 when it is not a number. */
  private static int globNumber(String token) {
    if (token.length() > 9 || !token.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Integer.parseInt(token);
  }

  /**
   * @param groups the regex's number of groups
   * @param named the names of its named groups
   */
  static Template regex(String text, int groups, Set<String> named) {
    List<Part> parts = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      int dollar = text.indexOf('$', i);
      if (dollar < 0) {
        literal(parts, text.substring(i));
        break;
      }
      literal(parts, text.substring(i, dollar));
      i = goReference(text, dollar, parts, groups, named);
    }
    return new Template(parts);
  }

  /** Adds what the '$' at {@code dollar} stands for; returns where the text goes on. */
  private static int goReference(
      String text, int dollar, List<Part> parts, int groups, Set<String> named) {
    if (dollar + 1 < text.length() && text.charAt(dollar + 1) == '$') {
      literal(parts, "$");
      return dollar + 2;
    }
    GoReference reference = GoReference.at(text, dollar + 1);
    if (reference == null) {
      literal(parts, "$"); // malformed: Go keeps the '$' as text
      return dollar + 1;
    }
    if (reference.number() >= 0 && reference.number() <= groups) {
      parts.add(new Group(reference.number()));
    } else if (reference.number() < 0 && named.contains(reference.name())) {
      parts.add(new Named(reference.name()));
    }
    return reference.end();
  }

  private static void literal(List<Part> parts, String text) {
    if (!text.isEmpty()) {
      parts.add(new Literal(text));
    }
  }

  String format(Groups groups) {
    if (parts.size() == 1 && parts.get(0) instanceof Literal only) {
      return only.text();
    }
    StringBuilder out = new StringBuilder();
    for (Part part : parts) {
      if (part instanceof Literal literal) {
        out.append(literal.text());
      } else if (part instanceof Group group) {
        out.append(groups.number(group.number()));
      } else if (part instanceof Named named) {
        out.append(groups.named(named.name()));
      }
    }
    return out.toString();
  }

  /** Whether the template refers to no capture: its text is the same whatever matched. */
  boolean isConstant() {
    return parts.stream().allMatch(Literal.class::isInstance);
  }

  /**
   * One {@code $name} or {@code ${name}} reference of a Go template.
   *
   * @param number the group number, or -1 when the name is not a plain number
   * @param end where the text after the reference starts
   */
  private record GoReference(String name, int number, int end) {
    /** The reference starting at {@code from} (just after the '$'); null when malformed. */
    static GoReference at(String text, int from) {
      boolean brace = from < text.length() && text.charAt(from) == '{';
      int start = brace ? from + 1 : from;
      int i = start;
      while (i < text.length()) {
        int c = text.codePointAt(i);
        if (!Character.isLetter(c) && !Character.isDigit(c) && c != '_') {
          break;
        }
        i += Character.charCount(c);
      }
      if (i == start) {
        return null;
      }
      String name = text.substring(start, i);
      if (brace) {
        if (i >= text.length() || text.charAt(i) != '}') {
          return null;
        }
        i++;
      }
      return new GoReference(name, goNumber(name), i);
    }

    /** Digits only, no leading zero, below 10^8, as Go reads a group number; else -1. */
    private static int goNumber(String name) {
      boolean digits = name.chars().allMatch(c -> c >= '0' && c <= '9');
      if (!digits || name.length() > 8 || (name.length() > 1 && name.charAt(0) == '0')) {
        return -1;
      }
      return Integer.parseInt(name);
    }
  }
}
