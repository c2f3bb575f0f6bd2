package dev.sluice.service;

import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.TextFormat;
import com.google.protobuf.Value;
import dev.sluice.limiter.Code;
import dev.sluice.limiter.CurrentLimit;
import dev.sluice.limiter.Decision;
import dev.sluice.limiter.DescriptorDecision;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.List;
import java.util.Map;

/**
 * The reference's {@code dynamic_metadata} (RESPONSE_DYNAMIC_METADATA): a Struct with {@code
 * domain}; {@code descriptors}, one Struct per request descriptor with {@code entries} as {@code
 * "key=value"} strings, {@code limit} (the override in protobuf text form) and {@code hitsAddend}
 * when the descriptor carries them; {@code hitsAddend} when the request's is not 0; and {@code
 * metadata}, the rules' {@code metadata} of every descriptor not over its limit merged in request
 * order (the first value of a key wins; two maps under one key merge recursively), left out when
 * empty. Envoy can route or log on it. Stateless.
 */
final class DynamicMetadata {
  private DynamicMetadata() {}

  static Struct of(RateLimitRequest request, Decision decision) {
    Struct.Builder fields = Struct.newBuilder().putFields("domain", text(request.getDomain()));
    ListValue.Builder descriptors = ListValue.newBuilder();
    for (RateLimitDescriptor descriptor : request.getDescriptorsList()) {
      descriptors.addValues(Value.newBuilder().setStructValue(descriptor(descriptor)));
    }
    fields.putFields("descriptors", Value.newBuilder().setListValue(descriptors).build());
    if (request.getHitsAddend() != 0) {
      fields.putFields("hitsAddend", number(Integer.toUnsignedLong(request.getHitsAddend())));
    }
    Struct.Builder merged = Struct.newBuilder();
    for (DescriptorDecision status : decision.statuses()) {
      if (status.code() != Code.OVER_LIMIT && status.currentLimit().isPresent()) {
        CurrentLimit limit = status.currentLimit().get();
        mergeInto(merged, struct(limit.metadata()));
      }
    }
    if (merged.getFieldsCount() > 0) {
      fields.putFields("metadata", Value.newBuilder().setStructValue(merged).build());
    }
    return fields.build();
  }

  private static Struct descriptor(RateLimitDescriptor descriptor) {
    ListValue.Builder entries = ListValue.newBuilder();
    descriptor
        .getEntriesList()
        .forEach(e -> entries.addValues(text(e.getKey() + "=" + e.getValue())));
    Struct.Builder fields =
        Struct.newBuilder().putFields("entries", Value.newBuilder().setListValue(entries).build());
    if (descriptor.hasLimit()) {
      fields.putFields("limit", text(TextFormat.shortDebugString(descriptor.getLimit())));
    }
    if (descriptor.hasHitsAddend()) {
      fields.putFields("hitsAddend", number(descriptor.getHitsAddend().getValue()));
    }
    return fields.build();
  }

  /** Keys {@code into} already has stay; where both hold a Struct, the two merge. */
  private static void mergeInto(Struct.Builder into, Struct from) {
    for (Map.Entry<String, Value> field : from.getFieldsMap().entrySet()) {
      Value existing = into.getFieldsMap().get(field.getKey());
      if (existing == null) {
        into.putFields(field.getKey(), field.getValue());
      } else if (existing.hasStructValue() && field.getValue().hasStructValue()) {
        Struct.Builder nested = existing.getStructValue().toBuilder();
        mergeInto(nested, field.getValue().getStructValue());
        into.putFields(field.getKey(), Value.newBuilder().setStructValue(nested).build());
      }
    }
  }

  private static Struct struct(Map<String, Object> map) {
    Struct.Builder struct = Struct.newBuilder();
    map.forEach((key, value) -> struct.putFields(key, value(value)));
    return struct.build();
  }

  @SuppressWarnings("unchecked")
  private static Value value(Object value) {
    if (value instanceof Map<?, ?> map) {
      return Value.newBuilder().setStructValue(struct((Map<String, Object>) map)).build();
    }
    if (value instanceof List<?> list) {
      ListValue.Builder items = ListValue.newBuilder();
      list.forEach(item -> items.addValues(value(item)));
      return Value.newBuilder().setListValue(items).build();
    }
    if (value instanceof Boolean bool) {
      return Value.newBuilder().setBoolValue(bool).build();
    }
    if (value instanceof Number n) {
      return number(n.doubleValue());
    }
    if (value == null) {
      return Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
    }
    return text(value.toString());
  }

  private static Value text(String text) {
    return Value.newBuilder().setStringValue(text).build();
  }

  private static Value number(double number) {
    return Value.newBuilder().setNumberValue(number).build();
  }
}
