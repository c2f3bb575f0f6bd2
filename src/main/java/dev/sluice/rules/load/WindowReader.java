package dev.sluice.rules.load;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Unit;
import dev.sluice.rules.Window;
import dev.sluice.rules.load.NodeReader.Fields;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a {@code rate_limit}'s window: {@code unit_multiplier} (N units per window, aligned to the
 * epoch) or {@code time_zone} (calendar windows in that zone), each checked against the unit and
 * the algorithm, with the line of the field at fault. Without either the window is one unit, as in
 * the reference. Not thread-safe; one per file, like its {@link NodeReader}.
 */
final class WindowReader {
  private static final String ZONE_EXAMPLES = "such as Europe/Berlin or America/New_York";

  private final NodeReader reader;

  WindowReader(NodeReader reader) {
    this.reader = reader;
  }

  /**
   * The window fields as written.
   *
   * @param multiplier empty when absent, or when invalid (then {@code valid} is false)
   * @param zone empty when absent, or when invalid (then {@code valid} is false)
   */
  record Parts(OptionalLong multiplier, Optional<ZoneId> zone, boolean valid) {}

  /**
   * Reads both fields on their own (reporting a value of the wrong shape or an unknown zone), so
   * their problems are found even when the unit is missing.
   */
  Parts parts(Fields f) {
    int before = reader.problemCount();
    OptionalLong multiplier = multiplier(f);
    Optional<ZoneId> zone = zone(f);
    return new Parts(multiplier, zone, reader.problemCount() == before);
  }

  /** A whole number (a uint32, as Envoy's); a negative one is told it must be at least 1. */
  private OptionalLong multiplier(Fields f) {
    Optional<Node> node = f.get("unit_multiplier");
    if (node.isPresent()
        && node.get() instanceof ScalarNode scalar
        && Tag.INT.equals(scalar.getTag())
        && scalar.getValue().startsWith("-")) {
      reader.report(node.get(), "unit_multiplier must be >= 1: " + scalar.getValue());
      return OptionalLong.empty();
    }
    return reader.uint32(f, "unit_multiplier");
  }

  /** The window of {@code unit} these parts make; empty (after reporting) when they cannot. */
  Optional<Window> window(Fields f, Parts parts, Unit unit, Algorithm algorithm) {
    if (!parts.valid()) {
      return Optional.empty();
    }
    if (parts.zone().isPresent()) {
      return calendar(f, parts, unit, algorithm);
    }
    return fixed(f, parts.multiplier().orElse(1), unit, algorithm);
  }

  private Optional<Window> fixed(Fields f, long multiplier, Unit unit, Algorithm algorithm) {
    int line = f.line("unit_multiplier");
    if (multiplier < 1) {
      reader.report(line, "unit_multiplier must be >= 1: " + multiplier);
      return Optional.empty();
    }
    if (multiplier > Window.Fixed.maxMultiplier(unit)) {
      reader.report(
          line,
          "unit_multiplier must be <= "
              + Window.Fixed.maxMultiplier(unit)
              + " per "
              + name(unit)
              + " (windows are at most 100 years): "
              + multiplier);
      return Optional.empty();
    }
    Window.Fixed window = new Window.Fixed(unit, multiplier);
    if (!algorithm.allows(window)) {
      reader.report(
          line,
          algorithm.configName()
              + defaultNote(f)
              + " counts over at most a day, not "
              + window.words());
      return Optional.empty();
    }
    return Optional.of(window);
  }

  private Optional<Window> calendar(Fields f, Parts parts, Unit unit, Algorithm algorithm) {
    int line = f.line("time_zone");
    if (parts.multiplier().isPresent()) {
      reader.report(
          f.line("unit_multiplier"),
          "unit_multiplier cannot be combined with time_zone: a calendar window is one day, week,"
              + " month or year");
      return Optional.empty();
    }
    if (!Window.Calendar.isCalendar(unit)) {
      reader.report(line, "time_zone applies to day, week, month or year, not " + name(unit));
      return Optional.empty();
    }
    Window window = new Window.Calendar(unit, parts.zone().get());
    if (!algorithm.allows(window)) {
      reader.report(
          line,
          "time_zone does not apply to "
              + algorithm.configName()
              + defaultNote(f)
              + ", which rolls over epoch-aligned windows; use fixed_window or token_bucket");
      return Optional.empty();
    }
    return Optional.of(window);
  }

  /**
   * A zone the JDK's time-zone data knows by its IANA name ({@code Europe/Berlin}, {@code UTC});
   * empty when absent, or (after reporting) unknown. Offsets such as {@code +05:30} are not names:
   * a region follows its own DST rules, which is what a calendar window in a zone is for.
   */
  private Optional<ZoneId> zone(Fields f) {
    if (!f.has("time_zone")) {
      return Optional.empty();
    }
    int before = reader.problemCount();
    String name = reader.text(f, "time_zone").orElse("");
    if (reader.problemCount() != before) {
      return Optional.empty();
    }
    Set<String> known = ZoneId.getAvailableZoneIds();
    if (known.contains(name)) {
      return Optional.of(ZoneId.of(name));
    }
    String message = "unknown time_zone '" + name + "'";
    Optional<String> spelled = known.stream().filter(name::equalsIgnoreCase).findFirst();
    reader.report(
        f.line("time_zone"),
        spelled
            .map(s -> message + " (did you mean '" + s + "'?)")
            .orElse(message + "; expected an IANA time zone name " + ZONE_EXAMPLES));
    return Optional.empty();
  }

  private static String defaultNote(Fields f) {
    return f.has("algorithm") ? "" : " (the default algorithm)";
  }

  private static String name(Unit unit) {
    return unit.name().toLowerCase(Locale.ROOT);
  }
}
