package dev.sluice.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Where serve takes its rules from: the files or an xDS management server (the reference's
 * CONFIG_TYPE, CONFIG_GRPC_XDS_* and XDS_CLIENT_*).
 */
public final class XdsSettings {
  public static final Setting<String> CONFIG_SOURCE =
      Setting.text(
          "--config-source",
          "SLUICE_CONFIG_SOURCE",
          "file",
          "file (the --config files, hot-reloaded) or xds (pushed by --xds-server)");

  public static final Setting<String> XDS_SERVER =
      Setting.text(
          "--xds-server",
          "SLUICE_XDS_SERVER",
          "localhost:18000",
          "xDS management server HOST:PORT");

  public static final Setting<String> XDS_NODE_ID =
      Setting.text(
          "--xds-node-id", "SLUICE_XDS_NODE_ID", "default", "node.id sent to the xDS server");

  public static final Setting<String> XDS_NODE_METADATA =
      Setting.text(
          "--xds-node-metadata",
          "SLUICE_XDS_NODE_METADATA",
          "{}",
          "node.metadata as a JSON object");

  public static final Setting<Boolean> XDS_TLS =
      Setting.bool(
          "--xds-tls",
          "SLUICE_XDS_TLS",
          false,
          "TLS to the xDS server; implied by --xds-tls-ca, --xds-tls-cert or --xds-tls-san");

  public static final Setting<Path> XDS_TLS_CA =
      Setting.path(
          "--xds-tls-ca",
          "SLUICE_XDS_TLS_CA",
          "CA certificates (PEM) the xDS server's certificate must chain to; default the JVM's");

  public static final Setting<Path> XDS_TLS_CERT =
      Setting.path(
          "--xds-tls-cert", "SLUICE_XDS_TLS_CERT", "Client certificate chain (PEM) for mutual TLS");

  public static final Setting<Path> XDS_TLS_KEY =
      Setting.path(
          "--xds-tls-key",
          "SLUICE_XDS_TLS_KEY",
          "Client private key (PEM, PKCS#8 or PKCS#1 RSA) for mutual TLS");

  public static final Setting<String> XDS_TLS_SAN =
      Setting.unsetText(
          "--xds-tls-san",
          "SLUICE_XDS_TLS_SAN",
          "Name the xDS server's certificate must hold, instead of the host of --xds-server");

  public static final Setting<List<String>> XDS_HEADER =
      Setting.list(
          "--xds-header",
          "SLUICE_XDS_HEADERS",
          "Extra request header NAME=VALUE on the xDS stream, repeatable or comma-separated");

  public static final Setting<Duration> XDS_BACKOFF_INITIAL =
      Setting.duration(
          "--xds-backoff-initial",
          "SLUICE_XDS_BACKOFF_INITIAL",
          "1s",
          "First wait before reconnecting to the xDS server, doubled per failure");

  public static final Setting<Duration> XDS_BACKOFF_MAX =
      Setting.duration(
          "--xds-backoff-max", "SLUICE_XDS_BACKOFF_MAX", "30s", "Longest wait between reconnects");

  public static final Setting<Double> XDS_BACKOFF_JITTER =
      Setting.of(
          "--xds-backoff-jitter",
          "SLUICE_XDS_BACKOFF_JITTER",
          "0.5",
          SettingText::doubleValue,
          "Each wait moved at random by up to this share of itself, 0..1");

  public static final Setting<Integer> XDS_MAX_MESSAGE_SIZE =
      Setting.integer(
          "--xds-max-message-size",
          "SLUICE_XDS_MAX_MESSAGE_SIZE",
          "4194304",
          "Largest xDS response accepted, bytes");

  public static final Setting<Boolean> XDS_REQUIRE_INITIAL_RULES =
      Setting.bool(
          "--xds-require-initial-rules",
          "SLUICE_XDS_REQUIRE_INITIAL_RULES",
          true,
          "Report unhealthy until the first rules arrive over xDS");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          CONFIG_SOURCE,
          XDS_SERVER,
          XDS_NODE_ID,
          XDS_NODE_METADATA,
          XDS_TLS,
          XDS_TLS_CA,
          XDS_TLS_CERT,
          XDS_TLS_KEY,
          XDS_TLS_SAN,
          XDS_HEADER,
          XDS_BACKOFF_INITIAL,
          XDS_BACKOFF_MAX,
          XDS_BACKOFF_JITTER,
          XDS_MAX_MESSAGE_SIZE,
          XDS_REQUIRE_INITIAL_RULES);

  private XdsSettings() {}
}
