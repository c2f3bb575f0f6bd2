package dev.sluice.explain;

import dev.sluice.admin.v1.ExplainRequest;
import dev.sluice.admin.v1.ExplainResponse;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.service.RequestMapping;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.concurrent.CompletableFuture;

/**
 * Explain for the admin API: an Envoy {@link RateLimitRequest} mapped exactly as ShouldRateLimit
 * maps it ({@link RequestMapping}: the same size limits, the same INVALID_ARGUMENT), explained by
 * the same {@link Explainer} as {@code sluice explain}, rendered by {@link ExplainProtos}. Reads
 * counters, never consumes. Thread-safe.
 */
public final class RequestExplainer {
  private final Explainer explainer;
  private final RequestMapping mapping;

  public RequestExplainer(Explainer explainer, RequestMapping mapping) {
    this.explainer = explainer;
    this.mapping = mapping;
  }

  /**
   * The explanation; the future fails with {@link dev.sluice.limiter.InvalidRequestException} for a
   * request ShouldRateLimit would refuse, or with the store's failure when counters cannot be read.
   */
  public CompletableFuture<ExplainResponse> explain(RateLimitRequest request) {
    RateLimitCall call;
    try {
      call = mapping.toCall(request);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return explainer.explain(call).thenApply(ExplainProtos::of);
  }

  /** The admin gRPC form of a request as Envoy's, so both transports share one mapping. */
  public static RateLimitRequest toEnvoy(ExplainRequest request) {
    RateLimitRequest.Builder envoy =
        RateLimitRequest.newBuilder()
            .setDomain(request.getDomain())
            .setHitsAddend(request.getHitsAddend());
    request
        .getDescriptorsList()
        .forEach(
            d -> {
              RateLimitDescriptor.Builder descriptor = envoy.addDescriptorsBuilder();
              d.getEntriesList()
                  .forEach(
                      e ->
                          descriptor.addEntriesBuilder().setKey(e.getKey()).setValue(e.getValue()));
            });
    return envoy.build();
  }
}
