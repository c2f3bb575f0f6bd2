package dev.sluice.deploy;

import io.envoyproxy.envoy.config.route.v3.RateLimit.Action;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What Envoy's rate-limit filter on the edge listener sends to Sluice for a request, computed from
 * the parsed config, so tests follow {@code envoy/envoy.yaml} rather than a copy of it.
 *
 * <p>Emulates, after Envoy's {@code ratelimit.cc} and {@code router_ratelimit.cc}, only what the
 * file uses; anything else fails loudly instead of being guessed:
 *
 * <ul>
 *   <li>Routing: the first virtual host whose domains contain {@code *}; in it the first route
 *       whose {@code prefix} or exact {@code path} matches the path without its query string. A
 *       route without a cluster (direct response, redirect) sends nothing: the filter skips routes
 *       without a route entry.
 *   <li>Only the route's own {@code rate_limits} with the filter's stage; virtual-host limits and
 *       per-route filter config are not emulated.
 *   <li>Each {@code rate_limits} entry gives one descriptor, entries in action order. An action
 *       that cannot produce its entry drops that whole descriptor, not the request; an action that
 *       skips adds no entry. No descriptors at all: no call.
 *   <li>{@code remote_address}: ({@code remote_address}, the TCP peer's IP), which is the client
 *       address because the connection manager has {@code use_remote_address: true} and trusts no
 *       X-Forwarded-For hop.
 *   <li>{@code request_headers}: ({@code descriptor_key}, first value of {@code header_name});
 *       header absent: skip the entry when {@code skip_if_absent}, else drop the descriptor.
 *   <li>{@code generic_key}: ({@code descriptor_key}, default {@code generic_key}, {@code
 *       descriptor_value}).
 * </ul>
 */
final class EnvoyRateLimitFilter {
  private final RateLimit filter;
  private final HttpConnectionManager connectionManager;

  EnvoyRateLimitFilter(EnvoyConfig config) {
    this.filter = config.rateLimitFilter();
    this.connectionManager = config.connectionManager(EnvoyConfig.EDGE_LISTENER);
    if (!connectionManager.getUseRemoteAddress().getValue()
        || connectionManager.getXffNumTrustedHops() != 0) {
      throw new AssertionError("emulation assumes use_remote_address: true and no trusted hops");
    }
    if (!filter.getRequestType().isEmpty() && !filter.getRequestType().equals("both")) {
      throw new AssertionError("emulation assumes request_type both");
    }
  }

  /** The call Envoy would make, or empty when it would make none. */
  Optional<RateLimitRequest> request(ClientRequest request) {
    List<RateLimitDescriptor> descriptors = descriptors(request);
    if (descriptors.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        RateLimitRequest.newBuilder()
            .setDomain(filter.getDomain())
            .addAllDescriptors(descriptors)
            .build());
  }

  List<RateLimitDescriptor> descriptors(ClientRequest request) {
    Route route = route(request);
    if (route.getActionCase() != Route.ActionCase.ROUTE) {
      return List.of();
    }
    if (route.getRoute().hasIncludeVhRateLimits() || route.getTypedPerFilterConfigCount() > 0) {
      throw new AssertionError("not emulated: virtual-host limits or per-route filter config");
    }
    List<RateLimitDescriptor> descriptors = new ArrayList<>();
    for (io.envoyproxy.envoy.config.route.v3.RateLimit limit :
        route.getRoute().getRateLimitsList()) {
      if (limit.hasLimit() || limit.hasHitsAddend() || limit.getApplyOnStreamDone()) {
        throw new AssertionError("not emulated: limit override, hits_addend, apply_on_stream_done");
      }
      int stage = limit.hasStage() ? limit.getStage().getValue() : 0;
      if (stage == filter.getStage()) {
        descriptor(limit.getActionsList(), request).ifPresent(descriptors::add);
      }
    }
    return descriptors;
  }

  Route route(ClientRequest request) {
    VirtualHost host =
        connectionManager.getRouteConfig().getVirtualHostsList().stream()
            .filter(vh -> vh.getDomainsList().contains("*"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no virtual host for domain *"));
    if (host.getRateLimitsCount() > 0 || host.getTypedPerFilterConfigCount() > 0) {
      throw new AssertionError("not emulated: virtual-host rate_limits or filter config");
    }
    String path = request.pathWithoutQuery();
    return host.getRoutesList().stream()
        .filter(route -> matches(route.getMatch(), path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no route for " + path));
  }

  private static boolean matches(RouteMatch match, String path) {
    if (match.getHeadersCount() > 0 || match.getQueryParametersCount() > 0) {
      throw new AssertionError("not emulated: header or query parameter route matchers");
    }
    return switch (match.getPathSpecifierCase()) {
      case PREFIX -> path.startsWith(match.getPrefix());
      case PATH -> path.equals(match.getPath());
      default -> throw new AssertionError("not emulated: route match " + match);
    };
  }

  private static Optional<RateLimitDescriptor> descriptor(List<Action> actions, ClientRequest req) {
    RateLimitDescriptor.Builder descriptor = RateLimitDescriptor.newBuilder();
    for (Action action : actions) {
      Outcome outcome = apply(action, req);
      if (outcome.kind() == Outcome.Kind.DROP) {
        return Optional.empty();
      }
      outcome.entry().ifPresent(descriptor::addEntries);
    }
    return Optional.of(descriptor.build());
  }

  private static Outcome apply(Action action, ClientRequest request) {
    return switch (action.getActionSpecifierCase()) {
      case REMOTE_ADDRESS -> Outcome.of("remote_address", request.clientIp());
      case REQUEST_HEADERS -> {
        var headers = action.getRequestHeaders();
        Optional<String> value = request.header(headers.getHeaderName());
        if (value.isEmpty()) {
          yield headers.getSkipIfAbsent() ? Outcome.SKIP : Outcome.DROP;
        }
        yield Outcome.of(headers.getDescriptorKey(), value.get());
      }
      case GENERIC_KEY -> {
        var key = action.getGenericKey();
        String name = key.getDescriptorKey().isEmpty() ? "generic_key" : key.getDescriptorKey();
        yield Outcome.of(name, key.getDescriptorValue());
      }
      default -> throw new AssertionError("not emulated: action " + action);
    };
  }

  /** One action's result: an entry, no entry ({@code SKIP}), or no descriptor ({@code DROP}). */
  private record Outcome(Kind kind, Optional<RateLimitDescriptor.Entry> entry) {
    enum Kind {
      ENTRY,
      SKIP,
      DROP
    }

    static final Outcome SKIP = new Outcome(Kind.SKIP, Optional.empty());
    static final Outcome DROP = new Outcome(Kind.DROP, Optional.empty());

    static Outcome of(String key, String value) {
      RateLimitDescriptor.Entry entry =
          RateLimitDescriptor.Entry.newBuilder().setKey(key).setValue(value).build();
      return new Outcome(Kind.ENTRY, Optional.of(entry));
    }
  }
}
