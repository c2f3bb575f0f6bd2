package dev.sluice.refstats;

import dev.sluice.metrics.RuleCounts;
import dev.sluice.metrics.StatsMirror;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reference service's stats, told the events {@code SluiceMetrics} records as it records them
 * (so for the same traffic each count equals its {@code sluice_*} twin), named as the reference
 * names them and mapped to Prometheus as its statsd_exporter sink maps them. Each stat is resolved
 * through the mapper once; an event is then a map lookup and an add. Also serves the process's
 * {@code process_*} metrics, which the reference's endpoint carries too. Thread-safe.
 *
 * <p>The twins: {@code total_hits}, {@code over_limit}, {@code near_limit}, {@code within_limit},
 * {@code shadow_mode}, {@code over_limit_with_local_cache} of a rule are its {@code
 * sluice_rule_*_total}; {@code domain_not_found} is {@code sluice_domain_not_found_total}; {@code
 * total_requests} and {@code response_time} are {@code sluice_request_duration_seconds}; {@code
 * service_error} is its {@code INVALID_ARGUMENT} count, {@code redis_error} its {@code UNAVAILABLE}
 * count plus {@code sluice_failure_policy_decisions_total}; {@code config_load_*} are {@code
 * sluice_rules_reloads_total} plus the load at startup.
 */
public final class ReferenceStats implements StatsMirror {
  private final StatsdMapper mapper;
  private final StatFamilies families = new StatFamilies();
  private final PrometheusRegistry process;
  private final Map<String, Map<String, RuleStats>> rules = new ConcurrentHashMap<>();
  private final Map<String, MappedStat> notFound = new ConcurrentHashMap<>();
  private final MappedStat totalRequests;
  private final MappedStat responseTime;
  private final MappedStat serviceError;
  private final MappedStat redisError;
  private final MappedStat loadSuccess;
  private final MappedStat loadError;
  private final MappedStat globalShadow;

  ReferenceStats(StatsdMapper mapper, PrometheusRegistry process) {
    this.mapper = mapper;
    this.process = process;
    ProcessMetrics.builder().register(process);
    totalRequests = counter(ReferenceStatNames.TOTAL_REQUESTS);
    responseTime =
        MappedStat.resolve(mapper, families, ReferenceStatNames.RESPONSE_TIME, StatType.OBSERVER);
    serviceError = counter(ReferenceStatNames.SERVICE_ERROR);
    redisError = counter(ReferenceStatNames.REDIS_ERROR);
    loadSuccess = counter(ReferenceStatNames.CONFIG_LOAD_SUCCESS);
    loadError = counter(ReferenceStatNames.CONFIG_LOAD_ERROR);
    globalShadow = counter(ReferenceStatNames.GLOBAL_SHADOW_MODE);
  }

  /**
   * @param mapperFile a statsd_exporter mapping file; empty for the reference's built-in mappings
   * @param responseTimeInMillis with the built-in mappings, leave response_time in milliseconds
   * @param process where the {@code process_*} metrics register (a fresh registry)
   * @throws MapperException when the file has a problem, naming it and its line
   * @throws UncheckedIOException when the file cannot be read
   */
  public static ReferenceStats create(
      Optional<Path> mapperFile, boolean responseTimeInMillis, PrometheusRegistry process) {
    StatsdMapper mapper =
        mapperFile
            .map(StatsdMapper::fromFile)
            .orElseGet(() -> StatsdMapper.referenceDefault(responseTimeInMillis));
    return new ReferenceStats(mapper, process);
  }

  private MappedStat counter(String statName) {
    return MappedStat.resolve(mapper, families, statName, StatType.COUNTER);
  }

  @Override
  public void ruleOutcome(String domain, String rule, RuleCounts counts) {
    Map<String, RuleStats> ofDomain = rules.get(domain);
    if (ofDomain == null) {
      ofDomain = rules.computeIfAbsent(domain, d -> new ConcurrentHashMap<>());
    }
    RuleStats stats = ofDomain.get(rule);
    if (stats == null) {
      stats = ofDomain.computeIfAbsent(rule, r -> new RuleStats(domain, r));
    }
    stats.record(counts);
  }

  @Override
  public void domainNotFound(String domain) {
    MappedStat stat = notFound.get(domain);
    if (stat == null) {
      stat = notFound.computeIfAbsent(domain, d -> counter(ReferenceStatNames.domainNotFound(d)));
    }
    stat.add(1);
  }

  @Override
  public void request(String code, long nanos) {
    totalRequests.add(1);
    responseTime.observe(nanos / 1e6);
    if (code.equals("INVALID_ARGUMENT")) {
      serviceError.add(1);
    } else if (code.equals("UNAVAILABLE")) {
      redisError.add(1);
    }
  }

  @Override
  public void configLoad(boolean loaded) {
    (loaded ? loadSuccess : loadError).add(1);
  }

  @Override
  public void failurePolicyDecision() {
    redisError.add(1);
  }

  @Override
  public void globalShadowMode() {
    globalShadow.add(1);
  }

  /** Every series with a sample, then the process metrics, in the Prometheus text format. */
  public byte[] scrape() {
    StringBuilder text = new StringBuilder();
    families.write(text);
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 2048);
    out.writeBytes(text.toString().getBytes(StandardCharsets.UTF_8));
    try {
      PrometheusTextFormatWriter.create().write(out, process.scrape(), null);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return out.toByteArray();
  }

  /** The content type of {@link #scrape}. */
  public static String contentType() {
    return TextFormat.CONTENT_TYPE;
  }

  /** A rule's six stats, resolved when the rule is first counted. */
  private final class RuleStats {
    private final MappedStat[] stats = new MappedStat[ReferenceStatNames.RULE_STATS.size()];

    RuleStats(String domain, String rule) {
      for (int i = 0; i < stats.length; i++) {
        stats[i] =
            counter(ReferenceStatNames.rule(domain, rule, ReferenceStatNames.RULE_STATS.get(i)));
      }
    }

    void record(RuleCounts counts) {
      stats[0].add(counts.total());
      stats[1].add(counts.over());
      stats[2].add(counts.near());
      stats[3].add(counts.within());
      stats[4].add(counts.shadow());
      stats[5].add(counts.localCache());
    }
  }
}
