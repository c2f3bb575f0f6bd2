package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Entry;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestSourceTest {
  private static final RequestTemplate TEMPLATE =
      new RequestTemplate("bench", List.of(new Entry("user", "u-")), 2, 0);

  @Test
  void next_prebuiltRoundRobin_theTemplatesRequestsInKeyOrderSerialised() throws Exception {
    RequestSource source = new RequestSource(TEMPLATE, KeyMode.roundRobin(3));
    KeyMode.Source keys = KeyMode.roundRobin(3).source();

    for (int i = 0; i < 7; i++) {
      assertThat(RateLimitRequest.parseFrom(source.next())).isEqualTo(TEMPLATE.build(keys.next()));
    }
  }

  @Test
  void next_randomKeys_serialisedPerRequestWithDifferentKeys() throws Exception {
    RequestSource source = new RequestSource(TEMPLATE, KeyMode.random());

    RateLimitRequest first = RateLimitRequest.parseFrom(source.next());
    RateLimitRequest second = RateLimitRequest.parseFrom(source.next());

    assertThat(first.getDomain()).isEqualTo("bench");
    assertThat(first.getDescriptorsCount()).isEqualTo(2);
    assertThat(first).isNotEqualTo(second);
  }
}
