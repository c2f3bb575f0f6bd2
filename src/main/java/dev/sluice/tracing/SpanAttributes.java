package dev.sluice.tracing;

import io.opentelemetry.api.common.AttributeKey;
import java.util.List;

/** The attributes Sluice puts on its spans: configured names and counts, never request values. */
final class SpanAttributes {
  static final AttributeKey<String> DOMAIN = AttributeKey.stringKey("ratelimit.domain");
  static final AttributeKey<Long> DESCRIPTORS = AttributeKey.longKey("ratelimit.descriptors");
  static final AttributeKey<String> OVERALL_CODE = AttributeKey.stringKey("ratelimit.overall_code");
  static final AttributeKey<List<String>> RULES = AttributeKey.stringArrayKey("ratelimit.rules");
  static final AttributeKey<String> GRPC_STATUS = AttributeKey.stringKey("rpc.grpc.status");
  static final AttributeKey<String> STORE = AttributeKey.stringKey("sluice.store");
  static final AttributeKey<Long> HITS = AttributeKey.longKey("sluice.store.hits");

  static final AttributeKey<List<String>> DOMAINS =
      AttributeKey.stringArrayKey("ratelimit.domains");
  static final AttributeKey<Long> RLQS_STREAMS = AttributeKey.longKey("sluice.rlqs.streams");
  static final AttributeKey<Long> RLQS_BUCKETS = AttributeKey.longKey("sluice.rlqs.buckets");
  static final AttributeKey<Long> RLQS_ASSIGNMENTS_SENT =
      AttributeKey.longKey("sluice.rlqs.assignments_sent");

  private SpanAttributes() {}
}
