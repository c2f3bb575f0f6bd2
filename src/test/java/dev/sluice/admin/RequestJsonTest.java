package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.limiter.InvalidRequestException;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestJsonTest {
  @Test
  void parse_aRequest_givesTheProto() {
    RateLimitRequest request =
        RequestJson.parse(
            bytes(
                """
                {"domain": "d", "hitsAddend": 3,
                 "descriptors": [{"entries": [{"key": "k", "value": "%s"}]}]}
                """
                    .formatted("9".repeat(8_192))));
    assertThat(request.getDomain()).isEqualTo("d");
    assertThat(request.getHitsAddend()).isEqualTo(3);
    assertThat(request.getDescriptors(0).getEntries(0).getValue()).hasSize(8_192);
  }

  @Test
  void parse_hugeNumber_isRefusedBeforeProtobufParsesIt() {
    String body = "{\"domain\":\"d\",\"hitsAddend\":" + "1".repeat(500_000) + "}";
    assertThatThrownBy(() -> RequestJson.parse(bytes(body)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("hitsAddend has 500000 characters")
        .message()
        .hasSizeLessThan(200);
  }

  @Test
  void parse_hugeNumberAsAString_inANumericField_isRefused() {
    String body =
        "{\"domain\":\"d\",\"descriptors\":[{\"entries\":[{\"key\":\"k\",\"value\":\"v\"}],"
            + "\"limit\":{\"requests_per_unit\":\""
            + "7".repeat(100_000)
            + "\",\"unit\":\"SECOND\"}}]}";
    assertThatThrownBy(() -> RequestJson.parse(bytes(body)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("requests_per_unit has 100000 characters");
  }

  @Test
  void parse_deeplyNested_isRefusedAsInvalid() {
    String body = "[".repeat(100_000) + "]".repeat(100_000);
    assertThatThrownBy(() -> RequestJson.parse(bytes(body)))
        .isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void parse_notJson_isInvalidRequest() {
    assertThatThrownBy(() -> RequestJson.parse(bytes("{\"domain\":")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("invalid RateLimitRequest JSON");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
