package dev.sluice.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The next request to send, serialised: a template with the next key of a {@link KeyMode}. Hot and
 * small round-robin key sets are built and serialised once up front, so the generator spends its
 * CPU on sending, not on building protobufs. Thread-safe; the arrays returned are shared and must
 * not be changed.
 */
final class RequestSource {
  /** Round-robin key sets up to this size are prebuilt. */
  static final int PREBUILT_LIMIT = 10_000;

  private final RequestTemplate template;
  private final KeyMode.Source keys;
  private final byte[][] prebuilt;
  private final AtomicLong next = new AtomicLong();

  RequestSource(RequestTemplate template, KeyMode mode) {
    this.template = template;
    this.keys = mode.source();
    this.prebuilt = prebuild(template, mode);
  }

  private static byte[][] prebuild(RequestTemplate template, KeyMode mode) {
    if (mode.kind() == KeyMode.Kind.RANDOM || mode.distinctValues() > PREBUILT_LIMIT) {
      return null;
    }
    KeyMode.Source source = mode.source();
    byte[][] requests = new byte[mode.distinctValues()][];
    for (int i = 0; i < requests.length; i++) {
      requests[i] = template.encode(source.next());
    }
    return requests;
  }

  /** The next request's bytes: {@code RateLimitRequest} in protobuf's wire format. */
  byte[] next() {
    if (prebuilt == null) {
      return template.encode(keys.next());
    }
    if (prebuilt.length == 1) {
      return prebuilt[0];
    }
    return prebuilt[(int) (next.getAndIncrement() % prebuilt.length)];
  }
}
