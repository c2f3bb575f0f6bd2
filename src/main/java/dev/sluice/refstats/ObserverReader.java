package dev.sluice.refstats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads what a mapping (or the defaults) says about timers: the kind ({@code observer_type}, or the
 * older {@code timer_type}), histogram buckets ({@code histogram_options.buckets}, or the older
 * top-level {@code buckets}) and summary quantiles ({@code summary_options.quantiles}, or {@code
 * quantiles}), with statsd_exporter's checks. Stateless.
 */
final class ObserverReader {
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

  ObserverReader(String source) {
    this.source = source;
  }

  /** The kind the fields name; empty when they name none. */
  Optional<ObserverOptions.Kind> kind(MapperFields fields) {
    boolean current = fields.text("observer_type").filter(t -> !t.isEmpty()).isPresent();
    String key = current ? "observer_type" : "timer_type";
    return fields
        .text(key)
        .filter(type -> !type.isEmpty())
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

  /** The defaults' options: statsd_exporter's where they set nothing. */
  ObserverOptions defaults(MapperFields fields) {
    return new ObserverOptions(
        kind(fields).orElse(ObserverOptions.Kind.SUMMARY),
        buckets(fields).orElse(ObserverOptions.DEFAULT_BUCKETS),
        quantiles(fields).orElse(ObserverOptions.DEFAULT_QUANTILES));
  }

  /**
   * A mapping's options over the defaults'.
   *
   * @param defaultKind the kind the defaults name, if any
   */
  ObserverOptions mapping(
      MapperFields fields, Optional<ObserverOptions.Kind> defaultKind, ObserverOptions defaults) {
    Optional<ObserverOptions.Kind> kind = kind(fields).or(() -> defaultKind);
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
        buckets(fields).orElse(defaults.buckets()),
        quantiles(fields).orElse(defaults.quantiles()));
  }

  private Optional<List<Double>> buckets(MapperFields fields) {
    Given given =
        given(fields, "histogram_options", "buckets", HISTOGRAM_KEYS, HISTOGRAM_UNSUPPORTED);
    if (given.items().isEmpty()) {
      return Optional.empty();
    }
    List<Double> bounds = new ArrayList<>();
    for (Node node : given.items()) {
      bounds.add(given.owner().number(node, "buckets"));
    }
    for (int i = 1; i < bounds.size(); i++) {
      if (!(bounds.get(i) > bounds.get(i - 1))) {
        throw given.owner().fail("buckets", "buckets must be in increasing order: " + bounds);
      }
    }
    return Optional.of(bounds);
  }

  private Optional<List<ObserverOptions.Quantile>> quantiles(MapperFields fields) {
    Given given = given(fields, "summary_options", "quantiles", SUMMARY_KEYS, SUMMARY_UNSUPPORTED);
    if (given.items().isEmpty()) {
      return Optional.empty();
    }
    List<ObserverOptions.Quantile> quantiles = new ArrayList<>();
    for (Node node : given.items()) {
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

  /** The list given under {@code options.key} or, the older way, under {@code key} itself. */
  private record Given(MapperFields owner, List<Node> items) {}

  private Given given(
      MapperFields fields,
      String options,
      String key,
      Set<String> known,
      Map<String, String> unsupported) {
    Optional<MapperFields> nested =
        fields
            .node(options)
            .map(node -> new MapperFields(source, node, options, known, unsupported));
    List<Node> inner = nested.map(o -> o.list(key)).orElse(List.of());
    List<Node> outer = fields.list(key);
    if (!inner.isEmpty() && !outer.isEmpty()) {
      throw fields.fail(
          key, "cannot use " + key + " in both the top level and " + options + " at the same time");
    }
    return inner.isEmpty() ? new Given(fields, outer) : new Given(nested.get(), inner);
  }
}
