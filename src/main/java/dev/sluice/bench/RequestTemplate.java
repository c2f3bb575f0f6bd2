package dev.sluice.bench;

import dev.sluice.rules.Entry;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.List;
import java.util.Objects;

/**
 * The shape of every request the load generator sends: one domain, {@code descriptorsPerRequest}
 * descriptors each holding {@code entries} in order, with a key value substituted in.
 *
 * <p>The key goes wherever an entry value says {@value #KEY}; when no value does, it is appended to
 * the last entry's value ({@code user=u-} becomes {@code user=u-42}). With more than one descriptor
 * per request, descriptor {@code i} gets the key {@code <key>.<i>}, so every descriptor is its own
 * counter. Immutable and thread-safe.
 *
 * @param hitsAddend the request's {@code hits_addend}; 0 leaves it unset (the server counts 1)
 */
public record RequestTemplate(
    String domain, List<Entry> entries, int descriptorsPerRequest, long hitsAddend) {
  /** The placeholder replaced by the key value. */
  public static final String KEY = "{key}";

  private static final long MAX_UINT32 = 0xFFFF_FFFFL;

  public RequestTemplate {
    Objects.requireNonNull(domain, "domain");
    if (domain.isEmpty()) {
      throw new IllegalArgumentException("domain must not be empty");
    }
    entries = List.copyOf(entries);
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("at least one descriptor entry is needed");
    }
    if (descriptorsPerRequest < 1) {
      throw new IllegalArgumentException(
          "descriptors per request must be >= 1: " + descriptorsPerRequest);
    }
    if (hitsAddend < 0 || hitsAddend > MAX_UINT32) {
      throw new IllegalArgumentException("hits addend must be 0..4294967295: " + hitsAddend);
    }
  }

  /** The request for one key value. */
  public RateLimitRequest build(String key) {
    RateLimitRequest.Builder request = RateLimitRequest.newBuilder().setDomain(domain);
    if (hitsAddend > 0) {
      request.setHitsAddend((int) hitsAddend); // uint32 on the wire
    }
    for (int i = 0; i < descriptorsPerRequest; i++) {
      String descriptorKey = descriptorsPerRequest == 1 ? key : key + "." + i;
      request.addDescriptors(descriptor(descriptorKey));
    }
    return request.build();
  }

  private RateLimitDescriptor descriptor(String key) {
    boolean placeholder = entries.stream().anyMatch(e -> e.value().contains(KEY));
    RateLimitDescriptor.Builder descriptor = RateLimitDescriptor.newBuilder();
    for (int i = 0; i < entries.size(); i++) {
      Entry entry = entries.get(i);
      String value;
      if (placeholder) {
        value = entry.value().replace(KEY, key);
      } else {
        value = i == entries.size() - 1 ? entry.value() + key : entry.value();
      }
      descriptor.addEntries(
          RateLimitDescriptor.Entry.newBuilder().setKey(entry.key()).setValue(value));
    }
    return descriptor.build();
  }

  /** Parses {@code key=value}; the value may be empty or hold {@value #KEY}. */
  public static Entry parseEntry(String text) {
    int equals = text.indexOf('=');
    if (equals <= 0) {
      throw new IllegalArgumentException(
          "invalid descriptor entry '" + text + "'; expected KEY=VALUE");
    }
    return new Entry(text.substring(0, equals), text.substring(equals + 1));
  }
}
