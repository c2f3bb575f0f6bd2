package dev.sluice.refstats;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A statsd_exporter mapper: turns a statsd name and event type into a Prometheus series, or drops
 * it. The glob mappings are tried first, in file order, then the regex ones in file order, as
 * statsd_exporter tries them; the first that applies wins. A name no mapping applies to keeps its
 * text, escaped ({@link StatsdNames#escape}), without labels. Immutable and thread-safe.
 */
final class StatsdMapper {
  private static final String DEFAULT_RESOURCE = "/refstats/default_mapper.yaml";

  private final List<StatsdMapping> globs = new ArrayList<>();
  private final List<StatsdMapping> regexes = new ArrayList<>();
  private final ObserverOptions defaultObserver;

  /**
   * @param defaultObserver what a timer no mapping applies to becomes
   */
  StatsdMapper(List<StatsdMapping> mappings, ObserverOptions defaultObserver) {
    for (StatsdMapping mapping : mappings) {
      (mapping.pattern() instanceof StatsdPattern.Glob ? globs : regexes).add(mapping);
    }
    this.defaultObserver = defaultObserver;
  }

  /**
   * The reference's built-in mappings (Sluice's own file with the same effect as its {@code
   * default_mapper.yaml}).
   *
   * @param responseTimeInMillis leave {@code response_time} in milliseconds, as the reference's
   *     {@code PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS}; else it is scaled to seconds
   */
  static StatsdMapper referenceDefault(boolean responseTimeInMillis) {
    StatsdMapper mapper = MapperFileParser.parse(defaultText(), "built-in default_mapper.yaml");
    if (!responseTimeInMillis) {
      return mapper;
    }
    List<StatsdMapping> unscaled = new ArrayList<>();
    for (StatsdMapping mapping : mapper.mappings()) {
      unscaled.add(mapping.withoutScale());
    }
    return new StatsdMapper(unscaled, mapper.defaultObserver);
  }

  /**
   * @throws MapperException naming the problem and its line
   * @throws UncheckedIOException when the file cannot be read
   */
  static StatsdMapper fromFile(Path file) {
    try {
      return MapperFileParser.parse(Files.readString(file), file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read mapper file " + file + ": " + e.getMessage(), e);
    }
  }

  private static String defaultText() {
    try (InputStream in = StatsdMapper.class.getResourceAsStream(DEFAULT_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + DEFAULT_RESOURCE);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What {@code statName}, an event of {@code type}, becomes. */
  Mapped map(String statName, StatType type) {
    for (List<StatsdMapping> kind : List.of(globs, regexes)) {
      for (StatsdMapping mapping : kind) {
        Optional<Mapped> mapped = mapping.apply(statName, type);
        if (mapped.isPresent()) {
          return mapped.get();
        }
      }
    }
    return Mapped.Series.of(StatsdNames.escape(statName), Map.of(), defaultObserver);
  }

  /** Every mapping, globs first. */
  List<StatsdMapping> mappings() {
    List<StatsdMapping> all = new ArrayList<>(globs);
    all.addAll(regexes);
    return all;
  }
}
