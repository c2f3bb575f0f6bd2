package dev.sluice.config;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The reference service's Prometheus endpoint (its {@code USE_PROMETHEUS}): the reference's stat
 * names, mapped as its statsd_exporter sink maps them, on a listener of their own. Off unless an
 * address is given; the admin port's {@code sluice_*} metrics are there either way.
 *
 * @param address where to listen; empty: off
 * @param path the one path served, e.g. {@code /metrics}
 * @param mapper a statsd_exporter mapping file; empty: the reference's built-in mappings
 * @param responseTimeInMillis with the built-in mappings, keep {@code response_time} in
 *     milliseconds rather than seconds
 */
public record ReferenceMetricsConfig(
    Optional<InetSocketAddress> address,
    String path,
    Optional<Path> mapper,
    boolean responseTimeInMillis) {
  public static final String DEFAULT_PATH =
      ReferenceMetricsSettings.REFERENCE_METRICS_PATH.defaultValue();

  public static final ReferenceMetricsConfig OFF =
      new ReferenceMetricsConfig(Optional.empty(), DEFAULT_PATH, Optional.empty(), false);

  public ReferenceMetricsConfig {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("reference metrics path must start with '/': " + path);
    }
    Objects.requireNonNull(mapper, "mapper");
  }

  public boolean enabled() {
    return address.isPresent();
  }

  /**
   * A listen address as Go writes one: {@code :9090} (every interface), {@code host:9090}, {@code
   * [::1]:9090}; empty or blank: none.
   *
   * @throws IllegalArgumentException naming the text when it is not such an address
   */
  public static Optional<InetSocketAddress> parseAddress(String text) {
    String value = text == null ? "" : text.trim();
    if (value.isEmpty()) {
      return Optional.empty();
    }
    int colon = value.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException(
          "reference metrics address must be host:port or :port: " + text);
    }
    String host = value.substring(0, colon);
    int port;
    try {
      port = Integer.parseInt(value.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("reference metrics address has no valid port: " + text);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("reference metrics port must be 0..65535: " + text);
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return Optional.of(
        host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port));
  }

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  public static ReferenceMetricsConfig from(SettingValues values) {
    return new ReferenceMetricsConfig(
        ReferenceMetricsConfig.parseAddress(
            values.get(ReferenceMetricsSettings.REFERENCE_METRICS_ADDR)),
        values.get(ReferenceMetricsSettings.REFERENCE_METRICS_PATH),
        Optional.ofNullable(values.get(ReferenceMetricsSettings.REFERENCE_METRICS_MAPPER))
            .filter(file -> !file.toString().isBlank()),
        values.get(ReferenceMetricsSettings.REFERENCE_METRICS_RESPONSE_TIME_MILLIS));
  }
}
