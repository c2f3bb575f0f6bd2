package dev.sluice.refstats;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a statsd_exporter mapping file (its {@code defaults} and {@code mappings}) into a {@link
 * StatsdMapper}, checking what statsd_exporter checks: names, label names, globs, regexes, the
 * timer options. A key statsd_exporter does not know, and one Sluice does not serve ({@code ttl},
 * native histograms, summary windows), is a {@link MapperException} naming it at its line. Reads
 * the YAML as a node tree (no object construction). Stateless.
 */
final class MapperFileParser {
  private static final Pattern NAME =
      Pattern.compile("^([a-zA-Z_]|\\$\\{?\\d+\\}?)([a-zA-Z0-9_]|\\$\\{?\\d+\\}?)*$");
  private static final Pattern LABEL_NAME = Pattern.compile("^[a-zA-Z_][a-zA-Z0-9_]+$");
  private static final int MAX_ALIASES = 20;

  private static final Set<String> TOP = Set.of("defaults", "mappings");
  private static final Set<String> OBSERVER_KEYS =
      Set.of(
          "observer_type",
          "timer_type",
          "match_type",
          "buckets",
          "quantiles",
          "histogram_options",
          "summary_options");
  private static final Set<String> MAPPING_KEYS =
      union(
          OBSERVER_KEYS,
          Set.of(
              "match",
              "name",
              "labels",
              "match_metric_type",
              "action",
              "scale",
              "help",
              "honor_labels"));
  private static final Set<String> DEFAULT_KEYS = OBSERVER_KEYS;
  private static final Map<String, String> UNSUPPORTED =
      Map.of(
          "ttl", "Sluice never expires a series (it keeps them, as statsd_exporter without a ttl)",
          "glob_disable_ordering", "mappings are tried in file order, globs before regexes");
  private final String source;
  private final ObserverReader observers;

  private MapperFileParser(String source) {
    this.source = source;
    this.observers = new ObserverReader(source);
  }

  /**
   * @param source the file's name in messages
   * @throws MapperException naming the first problem and its line
   */
  static StatsdMapper parse(String text, String source) {
    return new MapperFileParser(source).parse(text);
  }

  private StatsdMapper parse(String text) {
    Node root = document(text);
    if (MapperFields.isNull(root)) {
      return new StatsdMapper(List.of(), ObserverOptions.DEFAULT);
    }
    MapperFields top = new MapperFields(source, root, "the mapper file", TOP, Map.of());
    Defaults defaults =
        top.node("defaults")
            .map(
                node ->
                    defaults(new MapperFields(source, node, "defaults", DEFAULT_KEYS, UNSUPPORTED)))
            .orElse(Defaults.STATSD_EXPORTER);
    List<StatsdMapping> mappings = new ArrayList<>();
    for (Node node : top.list("mappings")) {
      mappings.add(
          mapping(
              new MapperFields(source, node, "a mapping", MAPPING_KEYS, UNSUPPORTED), defaults));
    }
    return new StatsdMapper(mappings, defaults.observer());
  }

  private Node document(String text) {
    LoaderOptions options = new LoaderOptions();
    options.setMaxAliasesForCollections(MAX_ALIASES);
    options.setAllowDuplicateKeys(false);
    try {
      return new Yaml(new SafeConstructor(options)).compose(new StringReader(text));
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark();
      throw new MapperException(
          source, mark == null ? 0 : mark.getLine() + 1, "invalid YAML: " + e.getProblem());
    } catch (YAMLException e) {
      throw new MapperException(source, 0, "invalid YAML: " + e.getMessage());
    }
  }

  /**
   * The defaults every mapping starts from.
   *
   * @param regex matches are regexes unless a mapping says {@code match_type: glob}
   * @param observer the timer kind (a summary unless set), with the default buckets and quantiles
   */
  private record Defaults(
      boolean regex, Optional<ObserverOptions.Kind> kind, ObserverOptions observer) {
    static final Defaults STATSD_EXPORTER =
        new Defaults(false, Optional.empty(), ObserverOptions.DEFAULT);
  }

  private Defaults defaults(MapperFields fields) {
    boolean regex = fields.text("match_type").map(type -> regex(fields, type)).orElse(false);
    return new Defaults(regex, observers.kind(fields), observers.defaults(fields));
  }

  private StatsdMapping mapping(MapperFields fields, Defaults defaults) {
    // Sluice's stats carry no statsd tags, so honouring them changes nothing: checked, not used.
    fields.bool("honor_labels");
    Map<String, String> labels =
        fields.textMap(
            "labels", label -> LABEL_NAME.matcher(label).matches(), "need [a-zA-Z_][a-zA-Z0-9_]+");
    String name = name(fields);
    boolean regex =
        fields.text("match_type").map(type -> regex(fields, type)).orElse(defaults.regex());
    StatsdPattern pattern = pattern(fields, regex);
    Map<String, Template> labelTemplates = new LinkedHashMap<>();
    labels.forEach((label, value) -> labelTemplates.put(label, pattern.template(value)));
    return new StatsdMapping(
        pattern,
        fields.text("match_metric_type").map(type -> metricType(fields, type)),
        fields.text("action").map(action -> drop(fields, action)).orElse(false),
        pattern.template(name),
        labelTemplates,
        observers.mapping(fields, defaults.kind(), defaults.observer()),
        fields.number("scale").map(OptionalDouble::of).orElse(OptionalDouble.empty()),
        fields.text("help"),
        fields.line());
  }

  /** The {@code name}: required, even to drop (as statsd_exporter wants it). */
  private String name(MapperFields fields) {
    String name = fields.text("name").orElse("");
    if (name.isEmpty()) {
      throw new MapperException(source, fields.line(), "the mapping sets no 'name'");
    }
    if (!NAME.matcher(name).matches()) {
      throw fields.fail(
          "name", "invalid name '" + name + "': letters, digits, _ and $n references only");
    }
    return name;
  }

  private StatsdPattern pattern(MapperFields fields, boolean regex) {
    String match = fields.text("match").orElse("");
    try {
      return regex ? StatsdPattern.Regex.of(match) : StatsdPattern.Glob.of(match);
    } catch (IllegalArgumentException e) {
      throw fields.fail("match", e.getMessage());
    }
  }

  private static boolean regex(MapperFields fields, String type) {
    return switch (type) {
      case "regex" -> true;
      case "glob", "" -> false;
      default ->
          throw fields.fail("match_type", "invalid match_type '" + type + "': glob or regex");
    };
  }

  private static StatType metricType(MapperFields fields, String type) {
    try {
      return StatType.named(type);
    } catch (IllegalArgumentException e) {
      throw fields.fail("match_metric_type", e.getMessage());
    }
  }

  private static boolean drop(MapperFields fields, String action) {
    return switch (action) {
      case "drop" -> true;
      case "map", "" -> false;
      default -> throw fields.fail("action", "invalid action '" + action + "': map or drop");
    };
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new java.util.TreeSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }
}
