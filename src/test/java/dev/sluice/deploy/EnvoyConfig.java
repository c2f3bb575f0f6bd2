package dev.sluice.deploy;

import com.google.gson.Gson;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code envoy/envoy.yaml} as Envoy's {@link Bootstrap} proto, read the way Envoy reads a YAML
 * bootstrap: YAML to proto3 JSON to the message, with unknown fields rejected and every {@code
 * typed_config} resolved through {@link #TYPES}. A type the file uses but {@link #TYPES} lacks
 * fails the parse, so a new extension in the file must be added here, where it gets checked too.
 *
 * <p>What this does not check: Envoy's own validation rules (required fields, ranges) and whether
 * the Envoy version in docker-compose.yml knows every field (the API classes are those of
 * io.envoyproxy.controlplane:api, built against the Envoy 1.34 API).
 */
record EnvoyConfig(Bootstrap bootstrap) {
  static final Path FILE = Path.of("envoy/envoy.yaml");

  /** The listener clients talk to; the other one is the demo upstream. */
  static final String EDGE_LISTENER = "edge";

  static final String RATE_LIMIT_FILTER = "envoy.filters.http.ratelimit";

  static final JsonFormat.TypeRegistry TYPES =
      JsonFormat.TypeRegistry.newBuilder()
          .add(HttpConnectionManager.getDescriptor())
          .add(RateLimit.getDescriptor())
          .add(Router.getDescriptor())
          .add(HttpProtocolOptions.getDescriptor())
          .build();

  static EnvoyConfig load() {
    try {
      return new EnvoyConfig(parse(Files.readString(FILE)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * @throws InvalidProtocolBufferException for an unknown field, a value of the wrong type, or a
   *     {@code typed_config} whose type is not in {@link #TYPES}
   */
  static Bootstrap parse(String yaml) throws InvalidProtocolBufferException {
    Object tree = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
    Bootstrap.Builder bootstrap = Bootstrap.newBuilder();
    JsonFormat.parser().usingTypeRegistry(TYPES).merge(new Gson().toJson(tree), bootstrap);
    return bootstrap.build();
  }

  Listener listener(String name) {
    return bootstrap.getStaticResources().getListenersList().stream()
        .filter(listener -> listener.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no listener " + name + " in " + FILE));
  }

  /** The HTTP connection manager of the listener's only filter chain. */
  HttpConnectionManager connectionManager(String listenerName) {
    Listener listener = listener(listenerName);
    if (listener.getFilterChainsCount() != 1
        || listener.getFilterChains(0).getFiltersCount() != 1) {
      throw new AssertionError("expected one filter chain with one filter in " + listenerName);
    }
    Filter filter = listener.getFilterChains(0).getFilters(0);
    return unpack(filter.getTypedConfig(), HttpConnectionManager.class);
  }

  /** The rate-limit filter on the edge listener. */
  RateLimit rateLimitFilter() {
    HttpFilter filter =
        connectionManager(EDGE_LISTENER).getHttpFiltersList().stream()
            .filter(f -> f.getName().equals(RATE_LIMIT_FILTER))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + RATE_LIMIT_FILTER + " in " + FILE));
    return unpack(filter.getTypedConfig(), RateLimit.class);
  }

  Cluster cluster(String name) {
    return bootstrap.getStaticResources().getClustersList().stream()
        .filter(cluster -> cluster.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no cluster " + name + " in " + FILE));
  }

  /** The address of a cluster with exactly one endpoint. */
  SocketAddress onlyEndpoint(String clusterName) {
    List<LocalityLbEndpoints> endpoints =
        cluster(clusterName).getLoadAssignment().getEndpointsList();
    if (endpoints.size() != 1 || endpoints.get(0).getLbEndpointsCount() != 1) {
      throw new AssertionError("expected one endpoint in cluster " + clusterName);
    }
    return endpoints.get(0).getLbEndpoints(0).getEndpoint().getAddress().getSocketAddress();
  }

  static <T extends Message> T unpack(Any any, Class<T> type) {
    try {
      return any.unpack(type);
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError("typed_config is " + any.getTypeUrl() + ", not " + type, e);
    }
  }
}
