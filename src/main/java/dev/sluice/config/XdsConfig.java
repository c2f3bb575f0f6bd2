package dev.sluice.config;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Rules from an xDS management server: the ADS stream, who Sluice says it is, TLS, and how it
 * reconnects.
 *
 * @param server {@code host:port} (or any gRPC target) of the management server
 * @param nodeId the {@code node.id} sent to the server, which picks the snapshot by it
 * @param nodeMetadataJson a JSON object sent as {@code node.metadata}; {@code {}} for none
 * @param tls how to secure the connection; {@link Tls#PLAINTEXT} for none
 * @param headers extra request headers on the stream; values are secrets (often a token)
 * @param backoff waits between reconnects
 * @param maxMessageBytes the largest response accepted
 * @param requireInitialRules health is unhealthy until a first valid snapshot arrived; {@code
 *     false} answers healthy with no rules at all (the reference's {@code
 *     FORCE_START_WITHOUT_INITIAL_CONFIG=true})
 */
public record XdsConfig(
    String server,
    String nodeId,
    String nodeMetadataJson,
    Tls tls,
    Map<String, Secret> headers,
    Backoff backoff,
    int maxMessageBytes,
    boolean requireInitialRules)
    implements RuleSource {

  public XdsConfig {
    Objects.requireNonNull(server, "server");
    if (server.isBlank()) {
      throw new IllegalArgumentException("xds server must be host:port, found nothing");
    }
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(nodeMetadataJson, "nodeMetadataJson");
    Objects.requireNonNull(tls, "tls");
    headers = Map.copyOf(headers);
    Objects.requireNonNull(backoff, "backoff");
    if (maxMessageBytes < 1) {
      throw new IllegalArgumentException("xds max message size must be >= 1: " + maxMessageBytes);
    }
  }

  /** Plaintext to {@code server}, node {@code default}, default backoff: for tests. */
  public static XdsConfig plaintext(String server) {
    return new XdsConfig(
        server, "default", "{}", Tls.PLAINTEXT, Map.of(), Backoff.DEFAULT, 4 << 20, true);
  }

  /**
   * TLS to the management server.
   *
   * @param enabled plaintext when false (then the other fields are empty)
   * @param caCert trusted CA certificates (PEM); empty = the JVM's trust store
   * @param clientCert client certificate chain for mutual TLS (PEM), with {@code clientKey}
   * @param serverName the name the server's certificate must carry, instead of the host in {@code
   *     server}
   */
  public record Tls(
      boolean enabled,
      Optional<Path> caCert,
      Optional<Path> clientCert,
      Optional<Path> clientKey,
      Optional<String> serverName) {
    public static final Tls PLAINTEXT =
        new Tls(false, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    public Tls {
      Objects.requireNonNull(caCert, "caCert");
      Objects.requireNonNull(clientCert, "clientCert");
      Objects.requireNonNull(clientKey, "clientKey");
      Objects.requireNonNull(serverName, "serverName");
      if (clientCert.isPresent() != clientKey.isPresent()) {
        throw new IllegalArgumentException(
            "xds client certificate and key go together: give both or neither");
      }
      if (!enabled && (caCert.isPresent() || clientCert.isPresent() || serverName.isPresent())) {
        throw new IllegalArgumentException("xds TLS files or server name given with TLS off");
      }
    }
  }

  /**
   * Exponential backoff between reconnects: {@code initial}, doubled per failed attempt up to
   * {@code max}, each wait moved at random by up to {@code jitter} of itself (0 = exact).
   */
  public record Backoff(Duration initial, Duration max, double jitter) {
    public static final Backoff DEFAULT =
        new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 0.5);

    public Backoff {
      if (initial.isNegative() || initial.isZero()) {
        throw new IllegalArgumentException("xds backoff initial must be positive: " + initial);
      }
      if (max.compareTo(initial) < 0) {
        throw new IllegalArgumentException(
            "xds backoff max must be >= initial: " + max + " < " + initial);
      }
      if (!(jitter >= 0 && jitter <= 1)) {
        throw new IllegalArgumentException("xds backoff jitter must be 0..1: " + jitter);
      }
    }
  }

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  public static RuleSource sourceFrom(SettingValues values) {
    switch (values.get(XdsSettings.CONFIG_SOURCE).trim().toLowerCase(Locale.ROOT)) {
      case "file":
        return RuleSource.FILES;
      case "xds":
        return from(values);
      default:
        throw new IllegalArgumentException(
            "invalid config source '"
                + values.get(XdsSettings.CONFIG_SOURCE)
                + "'; expected file or xds");
    }
  }

  private static XdsConfig from(SettingValues values) {
    checkJsonObject(values.get(XdsSettings.XDS_NODE_METADATA));
    boolean tlsOn =
        values.get(XdsSettings.XDS_TLS)
            || values.get(XdsSettings.XDS_TLS_CA) != null
            || values.get(XdsSettings.XDS_TLS_CERT) != null
            || values.get(XdsSettings.XDS_TLS_SAN) != null;
    XdsConfig.Tls tlsConfig =
        new XdsConfig.Tls(
            tlsOn,
            Optional.ofNullable(values.get(XdsSettings.XDS_TLS_CA)),
            Optional.ofNullable(values.get(XdsSettings.XDS_TLS_CERT)),
            Optional.ofNullable(values.get(XdsSettings.XDS_TLS_KEY)),
            Optional.ofNullable(values.get(XdsSettings.XDS_TLS_SAN)).filter(s -> !s.isEmpty()));
    return new XdsConfig(
        values.get(XdsSettings.XDS_SERVER),
        values.get(XdsSettings.XDS_NODE_ID),
        values.get(XdsSettings.XDS_NODE_METADATA),
        tlsConfig,
        headerMap(values.get(XdsSettings.XDS_HEADER)),
        new XdsConfig.Backoff(
            values.get(XdsSettings.XDS_BACKOFF_INITIAL),
            values.get(XdsSettings.XDS_BACKOFF_MAX),
            values.get(XdsSettings.XDS_BACKOFF_JITTER)),
        values.get(XdsSettings.XDS_MAX_MESSAGE_SIZE),
        values.get(XdsSettings.XDS_REQUIRE_INITIAL_RULES));
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

  /** A builder holding this configuration, to change some of its parts. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.server = server;
    builder.nodeId = nodeId;
    builder.nodeMetadataJson = nodeMetadataJson;
    builder.tls = tls;
    builder.headers = headers;
    builder.backoff = backoff;
    builder.maxMessageBytes = maxMessageBytes;
    builder.requireInitialRules = requireInitialRules;
    return builder;
  }

  /** Collects the parts of a {@link XdsConfig}; {@link #build} validates them. Not thread-safe. */
  public static final class Builder {
    private String server;
    private String nodeId;
    private String nodeMetadataJson;
    private Tls tls;
    private Map<String, Secret> headers;
    private Backoff backoff;
    private int maxMessageBytes;
    private boolean requireInitialRules;

    private Builder() {}

    public Builder server(String value) {
      this.server = value;
      return this;
    }

    public Builder nodeId(String value) {
      this.nodeId = value;
      return this;
    }

    public Builder nodeMetadataJson(String value) {
      this.nodeMetadataJson = value;
      return this;
    }

    public Builder tls(Tls value) {
      this.tls = value;
      return this;
    }

    public Builder headers(Map<String, Secret> value) {
      this.headers = value;
      return this;
    }

    public Builder backoff(Backoff value) {
      this.backoff = value;
      return this;
    }

    public Builder maxMessageBytes(int value) {
      this.maxMessageBytes = value;
      return this;
    }

    public Builder requireInitialRules(boolean value) {
      this.requireInitialRules = value;
      return this;
    }

    public XdsConfig build() {
      return new XdsConfig(
          server,
          nodeId,
          nodeMetadataJson,
          tls,
          headers,
          backoff,
          maxMessageBytes,
          requireInitialRules);
    }
  }
}
