/**
 * The reference service's (envoyproxy/ratelimit's) Prometheus endpoint: its statsd stat names
 * ({@link ReferenceStatNames}), built from the same events as the {@code sluice_*} metrics ({@link
 * ReferenceStats}, a {@code metrics.StatsMirror}), passed through a statsd_exporter-compatible
 * mapper ({@link StatsdMapper}, its YAML read by {@link MapperFileParser}; the built-in default is
 * {@code refstats/default_mapper.yaml}), kept in {@link StatFamilies} and served on their own
 * listener ({@link ReferenceMetricsServer}). Not here: the {@code sluice_*} metrics and the admin
 * port, which stay as they are.
 */
package dev.sluice.refstats;
