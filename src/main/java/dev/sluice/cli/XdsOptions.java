package dev.sluice.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import dev.sluice.config.RuleSource;
import dev.sluice.config.Secret;
import dev.sluice.config.XdsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where {@code serve} takes its rules from: the files, or an xDS management server. The flags map
 * the reference's {@code CONFIG_TYPE}, {@code CONFIG_GRPC_XDS_*} and {@code XDS_CLIENT_*} (see the
 * README).
 */
final class XdsOptions {
  @Option(
      names = "--config-source",
      defaultValue = "${env:SLUICE_CONFIG_SOURCE:-file}",
      description =
          "file (the --config files, hot-reloaded) or xds (pushed by --xds-server) (env"
              + " SLUICE_CONFIG_SOURCE, default ${DEFAULT-VALUE}).")
  String source;

  @Option(
      names = "--xds-server",
      defaultValue = "${env:SLUICE_XDS_SERVER:-localhost:18000}",
      description =
          "xDS management server HOST:PORT (env SLUICE_XDS_SERVER, default ${DEFAULT-VALUE}).")
  String server;

  @Option(
      names = "--xds-node-id",
      defaultValue = "${env:SLUICE_XDS_NODE_ID:-default}",
      description =
          "node.id sent to the xDS server (env SLUICE_XDS_NODE_ID, default ${DEFAULT-VALUE}).")
  String nodeId;

  @Option(
      names = "--xds-node-metadata",
      defaultValue = "${env:SLUICE_XDS_NODE_METADATA:-{}}",
      description =
          "node.metadata as a JSON object (env SLUICE_XDS_NODE_METADATA, default ${DEFAULT-VALUE}).")
  String nodeMetadata;

  @Option(
      names = "--xds-tls",
      arity = "0..1",
      defaultValue = "${env:SLUICE_XDS_TLS:-false}",
      description =
          "TLS to the xDS server; implied by --xds-tls-ca, --xds-tls-cert or --xds-tls-san (env"
              + " SLUICE_XDS_TLS, default ${DEFAULT-VALUE}).")
  boolean tls;

  @Option(
      names = "--xds-tls-ca",
      defaultValue = "${env:SLUICE_XDS_TLS_CA}",
      description =
          "CA certificates (PEM) the xDS server's certificate must chain to; default the JVM's (env SLUICE_XDS_TLS_CA).")
  Path tlsCa;

  @Option(
      names = "--xds-tls-cert",
      defaultValue = "${env:SLUICE_XDS_TLS_CERT}",
      description = "Client certificate chain (PEM) for mutual TLS (env SLUICE_XDS_TLS_CERT).")
  Path tlsCert;

  @Option(
      names = "--xds-tls-key",
      defaultValue = "${env:SLUICE_XDS_TLS_KEY}",
      description =
          "Client private key (PEM, PKCS#8 or PKCS#1 RSA) for mutual TLS (env SLUICE_XDS_TLS_KEY).")
  Path tlsKey;

  @Option(
      names = "--xds-tls-san",
      defaultValue = "${env:SLUICE_XDS_TLS_SAN}",
      description =
          "Name the xDS server's certificate must hold, instead of the host of --xds-server (env SLUICE_XDS_TLS_SAN).")
  String tlsSan;

  @Option(
      names = "--xds-header",
      split = ",",
      defaultValue = "${env:SLUICE_XDS_HEADERS:-}",
      description =
          "Extra request header NAME=VALUE on the xDS stream, repeatable or comma-separated (env SLUICE_XDS_HEADERS).")
  List<String> headers;

  @Option(
      names = "--xds-backoff-initial",
      defaultValue = "${env:SLUICE_XDS_BACKOFF_INITIAL:-1s}",
      converter = Converters.DurationConverter.class,
      description =
          "First wait before reconnecting to the xDS server, doubled per failure (env SLUICE_XDS_BACKOFF_INITIAL, default ${DEFAULT-VALUE}).")
  Duration backoffInitial;

  @Option(
      names = "--xds-backoff-max",
      defaultValue = "${env:SLUICE_XDS_BACKOFF_MAX:-30s}",
      converter = Converters.DurationConverter.class,
      description =
          "Longest wait between reconnects (env SLUICE_XDS_BACKOFF_MAX, default ${DEFAULT-VALUE}).")
  Duration backoffMax;

  @Option(
      names = "--xds-backoff-jitter",
      defaultValue = "${env:SLUICE_XDS_BACKOFF_JITTER:-0.5}",
      description =
          "Each wait moved at random by up to this share of itself, 0..1 (env SLUICE_XDS_BACKOFF_JITTER, default ${DEFAULT-VALUE}).")
  double backoffJitter;

  @Option(
      names = "--xds-max-message-size",
      defaultValue = "${env:SLUICE_XDS_MAX_MESSAGE_SIZE:-4194304}",
      description =
          "Largest xDS response accepted, bytes (env SLUICE_XDS_MAX_MESSAGE_SIZE, default ${DEFAULT-VALUE}).")
  int maxMessageSize;

  @Option(
      names = "--xds-require-initial-rules",
      arity = "0..1",
      defaultValue = "${env:SLUICE_XDS_REQUIRE_INITIAL_RULES:-true}",
      description =
          "Report unhealthy until the first rules arrive over xDS (env SLUICE_XDS_REQUIRE_INITIAL_RULES, default ${DEFAULT-VALUE}).")
  boolean requireInitialRules;

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  RuleSource toSource() {
    switch (source.trim().toLowerCase(Locale.ROOT)) {
      case "file":
        return RuleSource.FILES;
      case "xds":
        return toXds();
      default:
        throw new IllegalArgumentException(
            "invalid config source '" + source + "'; expected file or xds");
    }
  }

  private XdsConfig toXds() {
    checkJsonObject(nodeMetadata);
    boolean tlsOn = tls || tlsCa != null || tlsCert != null || tlsSan != null;
    XdsConfig.Tls tlsConfig =
        new XdsConfig.Tls(
            tlsOn,
            Optional.ofNullable(tlsCa),
            Optional.ofNullable(tlsCert),
            Optional.ofNullable(tlsKey),
            Optional.ofNullable(tlsSan).filter(s -> !s.isEmpty()));
    return new XdsConfig(
        server,
        nodeId,
        nodeMetadata,
        tlsConfig,
        headerMap(headers),
        new XdsConfig.Backoff(backoffInitial, backoffMax, backoffJitter),
        maxMessageSize,
        requireInitialRules);
  }

  private static void checkJsonObject(String json) {
    try {
      JsonFormat.parser().merge(json, Struct.newBuilder());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("xds node metadata must be a JSON object: " + json, e);
    }
  }

  private static Map<String, Secret> headerMap(List<String> headers) {
    Map<String, Secret> map = new LinkedHashMap<>();
    for (String header : headers == null ? List.<String>of() : headers) {
      if (header.isBlank()) {
        continue;
      }
      int eq = header.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "xds header must be NAME=VALUE; one has no name or no '=' (value not shown)");
      }
      map.put(
          header.substring(0, eq).trim().toLowerCase(Locale.ROOT),
          Secret.of(header.substring(eq + 1)));
    }
    return map;
  }
}
