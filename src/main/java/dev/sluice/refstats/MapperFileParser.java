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
  private static final Set<String> HISTOGRAM_KEYS = Set.of("buckets");
  private static final Map<String, String> HISTOGRAM_UNSUPPORTED =
      Map.of(
          "native_histogram_bucket_factor", "native histograms are not served",
          "native_histogram_max_buckets", "native histograms are not served");
  private static final Set<String> SUMMARY_KEYS = Set.of("quantiles");
  private static final Map<String, String> SUMMARY_UNSUPPORTED =
      Map.of(
          "max_age", "the summary window is statsd_exporter's default, 10m",
          "age_buckets", "the summary window has statsd_exporter's default 5 age buckets",
          "buf_cap", "the summary buffer is the Prometheus Java client's");

  private final String source;

  private MapperFileParser(String source) {
    this.source = source;
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
    Optional<ObserverOptions.Kind> kind = kind(fields);
    List<Double> buckets = buckets(fields).orElse(ObserverOptions.DEFAULT_BUCKETS);
    List<ObserverOptions.Quantile> quantiles =
        quantiles(fields).orElse(ObserverOptions.DEFAULT_QUANTILES);
    ObserverOptions observer =
        new ObserverOptions(kind.orElse(ObserverOptions.Kind.SUMMARY), buckets, quantiles);
    return new Defaults(regex, kind, observer);
  }

  private StatsdMapping mapping(MapperFields fields, Defaults defaults) {
    // Sluice's stats carry no statsd tags, so honouring them changes nothing: checked, not used.
    fields.bool("honor_labels");
    Map<String, String> labels =
        fields.textMap(
            "labels", label -> LABEL_NAME.matcher(label).matches(), "need [a-zA-Z_][a-zA-Z0-9_]+");
    String name = fields.text("name").orElse("");
    if (name.isEmpty()) {
      throw new MapperException(source, fields.line(), "the mapping sets no 'name'");
    }
    if (!NAME.matcher(name).matches()) {
      throw fields.fail(
          "name", "invalid name '" + name + "': letters, digits, _ and $n references only");
    }
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
        observer(fields, defaults),
        fields.number("scale").map(OptionalDouble::of).orElse(OptionalDouble.empty()),
        fields.text("help"),
        fields.line());
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

  /** observer_type, else the older timer_type; summary or histogram. */
  private static Optional<ObserverOptions.Kind> kind(MapperFields fields) {
    String key =
        fields.text("observer_type").filter(t -> !t.isEmpty()).isPresent()
            ? "observer_type"
            : "timer_type";
    return fields
        .text(key)
        .filter(t -> !t.isEmpty())
        .map(
            type ->
                switch (type) {
                  case "histogram" -> ObserverOptions.Kind.HISTOGRAM;
                  case "summary" -> ObserverOptions.Kind.SUMMARY;
                  default ->
                      throw fields.fail(
                          key, "invalid " + key + " '" + type + "': histogram or summary");
                });
  }

  private ObserverOptions observer(MapperFields fields, Defaults defaults) {
    Optional<ObserverOptions.Kind> kind = kind(fields).or(defaults::kind);
    Optional<List<Double>> buckets = buckets(fields);
    Optional<List<ObserverOptions.Quantile>> quantiles = quantiles(fields);
    if (kind.equals(Optional.of(ObserverOptions.Kind.HISTOGRAM))
        && fields.node("summary_options").isPresent()) {
      throw fields.fail(
          "summary_options", "cannot use histogram observer and summary options at the same time");
    }
    if (kind.equals(Optional.of(ObserverOptions.Kind.SUMMARY))
        && fields.node("histogram_options").isPresent()) {
      throw fields.fail(
          "histogram_options",
          "cannot use summary observer and histogram options at the same time");
    }
    return new ObserverOptions(
        kind.orElse(ObserverOptions.Kind.SUMMARY),
        buckets.orElse(defaults.observer().buckets()),
        quantiles.orElse(defaults.observer().quantiles()));
  }

  /** {@code histogram_options.buckets}, or the older top-level {@code buckets}; not both. */
  private Optional<List<Double>> buckets(MapperFields fields) {
    Optional<MapperFields> options =
        fields
            .node("histogram_options")
            .map(
                node ->
                    new MapperFields(
                        source, node, "histogram_options", HISTOGRAM_KEYS, HISTOGRAM_UNSUPPORTED));
    List<Node> nested = options.map(o -> o.list("buckets")).orElse(List.of());
    List<Node> legacy = fields.list("buckets");
    if (!nested.isEmpty() && !legacy.isEmpty()) {
      throw fields.fail(
          "buckets",
          "cannot use buckets in both the top level and histogram options at the same time");
    }
    List<Node> given = nested.isEmpty() ? legacy : nested;
    MapperFields owner = nested.isEmpty() ? fields : options.get();
    if (given.isEmpty()) {
      return Optional.empty();
    }
    List<Double> bounds = new ArrayList<>();
    for (Node node : given) {
      bounds.add(owner.number(node, "buckets"));
    }
    try {
      return Optional.of(
          new ObserverOptions(ObserverOptions.Kind.HISTOGRAM, bounds, List.of()).buckets());
    } catch (IllegalArgumentException e) {
      throw fields.fail(nested.isEmpty() ? "buckets" : "histogram_options", e.getMessage());
    }
  }

  /** {@code summary_options.quantiles}, or the older top-level {@code quantiles}; not both. */
  private Optional<List<ObserverOptions.Quantile>> quantiles(MapperFields fields) {
    Optional<MapperFields> options =
        fields
            .node("summary_options")
            .map(
                node ->
                    new MapperFields(
                        source, node, "summary_options", SUMMARY_KEYS, SUMMARY_UNSUPPORTED));
    List<Node> nested = options.map(o -> o.list("quantiles")).orElse(List.of());
    List<Node> legacy = fields.list("quantiles");
    if (!nested.isEmpty() && !legacy.isEmpty()) {
      throw fields.fail(
          "quantiles",
          "cannot use quantiles in both the top level and summary options at the same time");
    }
    List<Node> given = nested.isEmpty() ? legacy : nested;
    if (given.isEmpty()) {
      return Optional.empty();
    }
    List<ObserverOptions.Quantile> quantiles = new ArrayList<>();
    for (Node node : given) {
      MapperFields quantile =
          new MapperFields(source, node, "a quantile", Set.of("quantile", "error"), Map.of());
      try {
        quantiles.add(
            new ObserverOptions.Quantile(
                quantile.number("quantile").orElse(0.0), quantile.number("error").orElse(0.0)));
      } catch (IllegalArgumentException e) {
        throw new MapperException(source, quantile.line(), e.getMessage());
      }
    }
    return Optional.of(quantiles);
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new java.util.TreeSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }
}
