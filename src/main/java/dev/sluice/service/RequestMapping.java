package dev.sluice.service;

import dev.sluice.config.RequestLimits;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.limiter.LimitOverride;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Unit;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Envoy's {@link RateLimitRequest} to a {@link RateLimitCall}, within {@link RequestLimits}. Public
 * so the admin API's explain maps a request exactly as ShouldRateLimit does. Immutable.
 */
public final class RequestMapping {
  private final RequestLimits limits;

  public RequestMapping(RequestLimits limits) {
    this.limits = limits;
  }

  /**
   * @throws InvalidRequestException for an empty domain, no descriptors, a request over one of the
   *     {@link RequestLimits} (the message names the limit), or an override whose unit is UNKNOWN
   *     or not a unit we know (the reference service crashes on it)
   */
  public RateLimitCall toCall(RateLimitRequest request) {
    checkSize("domain", request.getDomain(), limits.maxDomainBytes(), "--max-domain-bytes");
    if (request.getDescriptorsCount() > limits.maxDescriptors()) {
      throw new InvalidRequestException(
          tooMany("descriptors", request.getDescriptorsCount(), limits.maxDescriptors())
              + " (--max-descriptors)");
    }
    long hitsAddend = Integer.toUnsignedLong(request.getHitsAddend());
    if (request.getDescriptorsCount() == 1) {
      // The usual request: a one-element list needs no array (List.of copies the one it is given).
      return new RateLimitCall(
          request.getDomain(), List.of(toDescriptor(request.getDescriptors(0))), hitsAddend);
    }
    // Arrays, not ArrayLists: RateLimitCall and DescriptorRequest copy what they are given unless
    // it is already immutable, so a growing list was built and then copied on every request.
    DescriptorRequest[] descriptors = new DescriptorRequest[request.getDescriptorsCount()];
    for (int i = 0; i < descriptors.length; i++) {
      descriptors[i] = toDescriptor(request.getDescriptors(i));
    }
    return new RateLimitCall(request.getDomain(), List.of(descriptors), hitsAddend);
  }

  private DescriptorRequest toDescriptor(RateLimitDescriptor descriptor) {
    if (descriptor.getEntriesCount() > limits.maxEntries()) {
      throw new InvalidRequestException(
          tooMany("entries in one descriptor", descriptor.getEntriesCount(), limits.maxEntries())
              + " (--max-descriptor-entries)");
    }
    List<Entry> entries;
    if (descriptor.getEntriesCount() == 1) {
      entries = List.of(toEntry(descriptor.getEntries(0))); // no array for List.of to copy
    } else {
      Entry[] all = new Entry[descriptor.getEntriesCount()];
      for (int i = 0; i < all.length; i++) {
        all[i] = toEntry(descriptor.getEntries(i));
      }
      entries = List.of(all);
    }
    Optional<LimitOverride> override =
        descriptor.hasLimit() ? Optional.of(toOverride(descriptor.getLimit())) : Optional.empty();
    OptionalLong hits =
        descriptor.hasHitsAddend()
            ? OptionalLong.of(boundedHits(descriptor.getHitsAddend().getValue()))
            : OptionalLong.empty();
    return new DescriptorRequest(entries, override, hits);
  }

  private Entry toEntry(RateLimitDescriptor.Entry entry) {
    checkSize("descriptor key", entry.getKey(), limits.maxKeyBytes(), "--max-key-bytes");
    checkSize("descriptor value", entry.getValue(), limits.maxValueBytes(), "--max-value-bytes");
    return new Entry(entry.getKey(), entry.getValue());
  }

  private static LimitOverride toOverride(RateLimitDescriptor.RateLimitOverride limit) {
    Unit unit =
        unitOf(limit.getUnitValue())
            .orElseThrow(
                () ->
                    new InvalidRequestException(
                        "rate limit override has unknown unit "
                            + limit.getUnitValue()
                            + "; expected SECOND, MINUTE, HOUR, DAY, WEEK, MONTH or YEAR"));
    return new LimitOverride(Integer.toUnsignedLong(limit.getRequestsPerUnit()), unit);
  }

  /** By number, so WEEK (7), which newer Envoy versions send, is understood too. */
  static Optional<Unit> unitOf(int number) {
    return switch (number) {
      case 1 -> Optional.of(Unit.SECOND);
      case 2 -> Optional.of(Unit.MINUTE);
      case 3 -> Optional.of(Unit.HOUR);
      case 4 -> Optional.of(Unit.DAY);
      case 5 -> Optional.of(Unit.MONTH);
      case 6 -> Optional.of(Unit.YEAR);
      case 7 -> Optional.of(Unit.WEEK);
      default -> Optional.empty();
    };
  }

  /**
   * The uint64 wrapper, unsigned, at most {@link RequestLimits#MAX_HITS_ADDEND}. Public so {@code
   * sluice replay} checks a captured {@code hits} exactly as this port checks a request's.
   *
   * @throws InvalidRequestException naming the value and the maximum
   */
  public static long boundedHits(long uint64) {
    if (Long.compareUnsigned(uint64, RequestLimits.MAX_HITS_ADDEND) > 0) {
      throw new InvalidRequestException(
          "hits_addend "
              + Long.toUnsignedString(uint64)
              + " is above the maximum of "
              + RequestLimits.MAX_HITS_ADDEND);
    }
    return uint64;
  }

  /**
   * UTF-8 length without encoding: a string has at least one byte per char and at most three (a
   * surrogate pair is two chars for four bytes), so most strings are decided by their length.
   */
  private static void checkSize(String what, String text, int maxBytes, String flag) {
    if (text.length() * 3L <= maxBytes) {
      return;
    }
    long bytes = text.length() > maxBytes ? text.length() : utf8Length(text);
    if (bytes > maxBytes) {
      throw new InvalidRequestException(
          what + " is longer than the limit of " + maxBytes + " bytes (" + flag + ")");
    }
  }

  private static long utf8Length(String text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  private static String tooMany(String what, int count, int max) {
    return count + " " + what + " is more than the limit of " + max;
  }
}
