package dev.sluice.config;

import java.util.List;

/**
 * Who may reach what: listen addresses, admin gRPC and debug ports, admin token, TLS on the RLS
 * port.
 */
public final class AccessSettings {
  public static final Setting<String> GRPC_BIND =
      Setting.text(
          "--grpc-bind", "SLUICE_GRPC_BIND", "0.0.0.0", "Address the RLS gRPC port listens on");

  public static final Setting<String> HTTP_BIND =
      Setting.text(
          "--http-bind",
          "SLUICE_HTTP_BIND",
          "0.0.0.0",
          "Address the admin HTTP (and admin gRPC) port listens on; 127.0.0.1 closes it to the host");

  public static final Setting<String> ADMIN_GRPC_PORT =
      Setting.text(
          "--admin-grpc-port",
          "SLUICE_ADMIN_GRPC_PORT",
          "off",
          "Port of the sluice.admin.v1.SluiceAdmin gRPC API, 'off' or 0..65535; never the RLS port");

  public static final Setting<String> DEBUG_PORT =
      Setting.text(
          "--debug-port",
          "SLUICE_DEBUG_PORT",
          "off",
          "Port of a second HTTP listener serving /rlconfig, as envoyproxy/ratelimit's debug port (DEBUG_PORT) does, bound to --http-bind; 'off' or 0..65535");

  public static final Setting<String> ADMIN_TOKEN_FILE =
      Setting.text(
          "--admin-token-file",
          "SLUICE_ADMIN_TOKEN_FILE",
          "",
          "File holding the bearer token admin writes need; without it writes are refused");

  public static final Setting<Boolean> ADMIN_TOKEN_FOR_READS =
      Setting.bool(
          "--admin-token-for-reads",
          "SLUICE_ADMIN_TOKEN_FOR_READS",
          false,
          "Admin reads (rules, counters, metrics, health, /json) need the token too");

  public static final Setting<String> GRPC_TLS_CERT =
      Setting.text(
          "--grpc-tls-cert",
          "SLUICE_GRPC_TLS_CERT",
          "",
          "PEM certificate chain: serve the RLS port over TLS; re-read when it changes");

  public static final Setting<String> GRPC_TLS_KEY =
      Setting.text(
          "--grpc-tls-key",
          "SLUICE_GRPC_TLS_KEY",
          "",
          "PEM private key (PKCS#8 or PKCS#1 RSA) of --grpc-tls-cert");

  public static final Setting<String> GRPC_TLS_CLIENT_CA =
      Setting.text(
          "--grpc-tls-client-ca",
          "SLUICE_GRPC_TLS_CLIENT_CA",
          "",
          "PEM CA: RLS clients must present a certificate it signed (mTLS)");

  public static final Setting<String> GRPC_TLS_CLIENT_SAN =
      Setting.text(
          "--grpc-tls-client-san",
          "SLUICE_GRPC_TLS_CLIENT_SAN",
          "",
          "With --grpc-tls-client-ca: only client certificates carrying this DNS name or IP address as a subject alternative name are accepted");

  /** In the order {@code --help} and docs/settings.md list them. */
  public static final List<Setting<?>> ALL =
      List.of(
          GRPC_BIND,
          HTTP_BIND,
          ADMIN_GRPC_PORT,
          DEBUG_PORT,
          ADMIN_TOKEN_FILE,
          ADMIN_TOKEN_FOR_READS,
          GRPC_TLS_CERT,
          GRPC_TLS_KEY,
          GRPC_TLS_CLIENT_CA,
          GRPC_TLS_CLIENT_SAN);

  private AccessSettings() {}
}
