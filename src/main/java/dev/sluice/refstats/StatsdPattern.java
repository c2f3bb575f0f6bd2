package dev.sluice.refstats;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** A mapping's {@code match}: a glob (the default) or a regex ({@code match_type: regex}). */
sealed interface StatsdPattern permits StatsdPattern.Glob, StatsdPattern.Regex {
  /** What {@code name} captured, group by number; empty when it does not match. */
  Optional<Template.Groups> match(String name);

  /** {@code text} as a template over this pattern's groups. */
  Template template(String text);

  /**
   * A dot-separated glob: each segment is {@code *} (any one segment, empty included, captured as
   * {@code $1}, {@code $2} ...) or literal text, and a name matches when it has as many segments.
   * This is what statsd_exporter's glob automaton matches.
   */
  record Glob(List<String> segments, int captures) implements StatsdPattern {
    /** statsd_exporter's check of a glob: identifier segments or {@code *}, the first no digit. */
    private static final Pattern VALID =
        Pattern.compile(
            "^(\\*|[a-zA-Z_][a-zA-Z0-9_\\-]*)(\\.\\*|\\.[a-zA-Z0-9_][a-zA-Z0-9_\\-]*)*$");

    public Glob {
      segments = List.copyOf(segments);
    }

    /**
     * @throws IllegalArgumentException when statsd_exporter would reject the glob
     */
    static Glob of(String text) {
      if (!VALID.matcher(text).matches()) {
        throw new IllegalArgumentException(
            "invalid match '"
                + text
                + "': a glob is dot-separated segments, each * or letters, digits, _ and -");
      }
      List<String> segments = List.of(text.split("\\.", -1));
      int captures = (int) segments.stream().filter("*"::equals).count();
      return new Glob(segments, captures);
    }

    @Override
    public Optional<Template.Groups> match(String name) {
      String[] parts = name.split("\\.", -1);
      if (parts.length != segments.size()) {
        return Optional.empty();
      }
      List<String> captured = new ArrayList<>(captures);
      for (int i = 0; i < parts.length; i++) {
        String segment = segments.get(i);
        if (segment.equals("*")) {
          captured.add(parts[i]);
        } else if (!segment.equals(parts[i])) {
          return Optional.empty();
        }
      }
      return Optional.of(
          new Template.Groups() {
            @Override
            public String number(int number) {
              return captured.get(number - 1);
            }

            @Override
            public String named(String group) {
              return "";
            }
          });
    }

    @Override
    public Template template(String text) {
      return Template.glob(text, captures);
    }
  }

  /**
   * A regular expression found anywhere in the name (unanchored, as Go's {@code
   * FindStringSubmatchIndex}); Go's {@code (?P<name>...)} groups are accepted.
   */
  record Regex(Pattern pattern, Set<String> named) implements StatsdPattern {
    private static final Pattern NAMED_GROUP = Pattern.compile("\\(\\?P?<([a-zA-Z][a-zA-Z0-9]*)>");

    public Regex {
      named = Set.copyOf(named);
    }

    /**
     * @throws IllegalArgumentException when the regex does not compile
     */
    static Regex of(String text) {
      String java = text.replace("(?P<", "(?<");
      Pattern pattern;
      try {
        pattern = Pattern.compile(java);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "invalid regex '" + text + "': " + e.getDescription(), e);
      }
      return new Regex(pattern, namedGroups(java));
    }

    /** The names of the named groups (Java 17 has no API for them). */
    private static Set<String> namedGroups(String java) {
      Set<String> named = new HashSet<>();
      Matcher group = NAMED_GROUP.matcher(java);
      while (group.find()) {
        named.add(group.group(1));
      }
      return named;
    }

    @Override
    public Optional<Template.Groups> match(String name) {
      Matcher matcher = pattern.matcher(name);
      if (!matcher.find()) {
        return Optional.empty();
      }
      return Optional.of(
          new Template.Groups() {
            @Override
            public String number(int number) {
              return Objects.requireNonNullElse(matcher.group(number), "");
            }

            @Override
            public String named(String group) {
              return Objects.requireNonNullElse(matcher.group(group), "");
            }
          });
    }

    @Override
    public Template template(String text) {
      return Template.regex(text, pattern.matcher("").groupCount(), named);
    }
  }
}
