package dev.sluice.rules.load;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Where a YAML map sits in a rule file, and so which fields it may hold. Unlike the reference
 * service's flat allow-list, a known field in the wrong place is an error: {@code unit} directly on
 * a descriptor would otherwise be silently ignored.
 */
enum Place {
  TOP_LEVEL("a rule file", "at the top level", Set.of("domain", "descriptors")),
  DESCRIPTOR(
      "a descriptor",
      "in a descriptor",
      Set.of(
          "key",
          "value",
          "rate_limit",
          "rate_limits",
          "descriptors",
          "shadow_mode",
          "charge_denied",
          "quota_mode",
          "detailed_metric",
          "value_to_metric",
          "share_threshold",
          "metadata")),
  RATE_LIMIT(
      "rate_limit",
      "in rate_limit",
      Set.of(
          "unit",
          "requests_per_unit",
          "unlimited",
          "name",
          "replaces",
          "algorithm",
          "burst",
          "consistency",
          "unit_multiplier",
          "time_zone")),
  REPLACES_ENTRY("a replaces entry", "in a replaces entry", Set.of("name"));

  /** Where to look first for a field's home when it is in the wrong place. */
  private static final List<Place> HOME_ORDER =
      List.of(DESCRIPTOR, RATE_LIMIT, TOP_LEVEL, REPLACES_ENTRY);

  private final String noun;
  private final String where;
  private final Set<String> fields;

  Place(String noun, String where, Set<String> fields) {
    this.noun = noun;
    this.where = where;
    this.fields = fields;
  }

  /** What a map in this place is called in messages, e.g. {@code "a descriptor"}. */
  String noun() {
    return noun;
  }

  boolean allows(String field) {
    return fields.contains(field);
  }

  /**
   * The message for a field this place does not allow: misplaced if known elsewhere, else unknown.
   */
  String rejection(String field) {
    for (Place home : HOME_ORDER) {
      if (home.allows(field)) {
        return "field '" + field + "' belongs " + home.where + ", not " + where;
      }
    }
    String message = "unknown field '" + field + "' " + where;
    return suggestion(field).map(s -> message + " (did you mean '" + s + "'?)").orElse(message);
  }

  /** A field of this place spelled the same but for case, underscores and dashes. */
  private Optional<String> suggestion(String field) {
    String wanted = squash(field);
    return fields.stream().filter(f -> squash(f).equals(wanted)).findFirst();
  }

  private static String squash(String name) {
    return name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
  }
}
