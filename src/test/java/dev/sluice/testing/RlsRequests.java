package dev.sluice.testing;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;

/** Builds Envoy RLS requests tersely: {@code request("api", descriptor("user", "alice"))}. */
public final class RlsRequests {
  private RlsRequests() {}

  public static RateLimitRequest request(String domain, RateLimitDescriptor... descriptors) {
    return RateLimitRequest.newBuilder()
        .setDomain(domain)
        .addAllDescriptors(java.util.List.of(descriptors))
        .build();
  }

  /** A descriptor from alternating keys and values: {@code descriptor("k1", "v1", "k2", "v2")}. */
  public static RateLimitDescriptor descriptor(String... keysAndValues) {
    return descriptorBuilder(keysAndValues).build();
  }

  public static RateLimitDescriptor.Builder descriptorBuilder(String... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must come in pairs");
    }
    RateLimitDescriptor.Builder descriptor = RateLimitDescriptor.newBuilder();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      descriptor.addEntries(
          RateLimitDescriptor.Entry.newBuilder()
              .setKey(keysAndValues[i])
              .setValue(keysAndValues[i + 1]));
    }
    return descriptor;
  }
}
