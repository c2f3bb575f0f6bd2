package dev.sluice.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import dev.sluice.config.RuleSource;
import dev.sluice.config.Secret;
import dev.sluice.config.SettingValues;
import dev.sluice.config.XdsConfig;
import dev.sluice.config.XdsSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where {@code serve} takes its rules from: the files, or an xDS management server. The flags map
 * the reference's {@code CONFIG_TYPE}, {@code CONFIG_GRPC_XDS_*} and {@code XDS_CLIENT_*} (see the
 * README).
 */
final class XdsOptions {
  private final SettingValues values;

  XdsOptions(SettingValues values) {
    this.values = values;
  }

  /**
   * @throws IllegalArgumentException naming the bad value
   */
  RuleSource toSource() {
    switch (values.get(XdsSettings.CONFIG_SOURCE).trim().toLowerCase(Locale.ROOT)) {
      case "file":
        return RuleSource.FILES;
      case "xds":
        return toXds();
      default:
        throw new IllegalArgumentException(
            "invalid config source '"
                + values.get(XdsSettings.CONFIG_SOURCE)
                + "'; expected file or xds");
    }
  }

  private XdsConfig toXds() {
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
}
