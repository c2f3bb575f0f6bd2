package dev.sluice.service;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.descriptorBuilder;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UInt64Value;
import dev.sluice.config.RequestLimits;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.InvalidRequestException;
import dev.sluice.limiter.LimitOverride;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Unit;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor.RateLimitOverride;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.type.v3.RateLimitUnit;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Envoy's request to the limiter's call: units by number, unsigned numbers, wrappers. */
class RequestMappingTest {
  private static final RequestMapping MAPPING = new RequestMapping(RequestLimits.defaults());

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"1, SECOND", "2, MINUTE", "3, HOUR", "4, DAY", "5, MONTH", "6, YEAR", "7, WEEK"})
  void unitOf_envoyUnitNumber_isOurUnit(int number, Unit unit) {
    assertThat(RequestMapping.unitOf(number)).contains(unit);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 8, 9, -1, Integer.MAX_VALUE})
  void unitOf_unknownOrUnsetNumber_isEmpty(int number) {
    assertThat(RequestMapping.unitOf(number)).isEmpty();
  }

  @Test
  void toCall_entriesAndDescriptors_keepTheirOrder() {
    RateLimitCall call =
        MAPPING.toCall(request("api", descriptor("b", "2", "a", "1"), descriptor("user", "")));

    assertThat(call.domain()).isEqualTo("api");
    assertThat(call.descriptors())
        .extracting(DescriptorRequest::entries)
        .containsExactly(
            List.of(new Entry("b", "2"), new Entry("a", "1")), List.of(new Entry("user", "")));
    assertThat(call.descriptors().get(0).override()).isEmpty();
    assertThat(call.descriptors().get(0).hitsAddend()).isEmpty();
  }

  @Test
  void toCall_requestHitsAddend_isReadAsUint32() {
    RateLimitRequest request =
        request("api", descriptor("k", "v")).toBuilder().setHitsAddend(-1).build();

    assertThat(MAPPING.toCall(request).hitsAddend()).isEqualTo(4_294_967_295L);
  }

  @Test
  void toCall_descriptorHitsAddendWrapper_isPresentEvenWhenZero() {
    RateLimitRequest request =
        request(
            "api",
            descriptorBuilder("k", "v").setHitsAddend(UInt64Value.of(0)).build(),
            descriptorBuilder("k", "v").setHitsAddend(UInt64Value.of(7)).build());

    assertThat(MAPPING.toCall(request).descriptors())
        .extracting(DescriptorRequest::hitsAddend)
        .containsExactly(OptionalLong.of(0), OptionalLong.of(7));
  }

  @Test
  void toCall_descriptorHitsAddendAboveLongMax_isInvalid() {
    RateLimitRequest request =
        request("api", descriptorBuilder("k", "v").setHitsAddend(UInt64Value.of(-1L)).build());

    assertThatThrownBy(() -> MAPPING.toCall(request))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("hits_addend 18446744073709551615 is above the maximum of 4294967295");
  }

  @Test
  void toCall_overrideWithUint32MaxAndWeekByNumber_isReadExactly() {
    RateLimitOverride weekly =
        RateLimitOverride.newBuilder().setRequestsPerUnit(-1).setUnitValue(7).build();
    RateLimitRequest request = request("api", descriptorBuilder("k", "v").setLimit(weekly).build());

    assertThat(MAPPING.toCall(request).descriptors().get(0).override())
        .isEqualTo(Optional.of(new LimitOverride(4_294_967_295L, Unit.WEEK)));
  }

  @Test
  void toCall_overrideWithUnknownUnit_isInvalidAndNamesTheNumber() {
    RateLimitOverride unknown =
        RateLimitOverride.newBuilder().setRequestsPerUnit(1).setUnit(RateLimitUnit.UNKNOWN).build();
    RateLimitRequest request =
        request("api", descriptorBuilder("k", "v").setLimit(unknown).build());

    assertThatThrownBy(() -> MAPPING.toCall(request))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("rate limit override has unknown unit 0;");
  }

  @Test
  void toCall_emptyDomainOrNoDescriptors_isInvalidWithTheReferenceMessages() {
    assertThatThrownBy(() -> MAPPING.toCall(request("", descriptor("k", "v"))))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("rate limit domain must not be empty");
    assertThatThrownBy(() -> MAPPING.toCall(request("api")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("rate limit descriptor list must not be empty");
  }

  /** The attack of issue 11: one 2^63-1 addend drove a Redis counter to overflow for everyone. */
  @ParameterizedTest
  @ValueSource(longs = {Long.MAX_VALUE, 1L << 62, 4_294_967_296L})
  void toCall_descriptorHitsAddendAboveUint32Max_isInvalidAndNamesTheMaximum(long hits) {
    RateLimitRequest request =
        request("api", descriptorBuilder("k", "v").setHitsAddend(UInt64Value.of(hits)).build());

    assertThatThrownBy(() -> MAPPING.toCall(request))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("hits_addend " + hits + " is above the maximum of 4294967295");
  }

  @Test
  void toCall_descriptorHitsAddendAtUint32Max_isAccepted() {
    RateLimitRequest request =
        request(
            "api",
            descriptorBuilder("k", "v").setHitsAddend(UInt64Value.of(4_294_967_295L)).build());

    assertThat(MAPPING.toCall(request).descriptors().get(0).hitsAddend())
        .isEqualTo(OptionalLong.of(4_294_967_295L));
  }

  private static final RequestMapping SMALL = new RequestMapping(new RequestLimits(2, 2, 8, 4, 6));

  @Test
  void toCall_moreDescriptorsThanTheLimit_isInvalidAndNamesTheLimit() {
    RateLimitRequest request =
        request("api", descriptor("k", "v"), descriptor("k", "v"), descriptor("k", "v"));

    assertThatThrownBy(() -> SMALL.toCall(request))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("3 descriptors is more than the limit of 2 (--max-descriptors)");
  }

  @Test
  void toCall_moreEntriesThanTheLimit_isInvalidAndNamesTheLimit() {
    RateLimitRequest request = request("api", descriptor("a", "1", "b", "2", "c", "3"));

    assertThatThrownBy(() -> SMALL.toCall(request))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage(
            "3 entries in one descriptor is more than the limit of 2 (--max-descriptor-entries)");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "domain longer,      ninechars, k,     v,       domain is longer than the limit of 8 bytes (--max-domain-bytes)",
    "key longer,         api,       fives, v,       descriptor key is longer than the limit of 4 bytes (--max-key-bytes)",
    "value longer,       api,       k,     sevench, descriptor value is longer than the limit of 6 bytes (--max-value-bytes)",
    "value in utf-8,     api,       k,     ééé+,    descriptor value is longer than the limit of 6 bytes (--max-value-bytes)",
  })
  void toCall_stringOverItsByteLimit_isInvalidAndNamesTheLimit(
      String name, String domain, String key, String value, String message) {
    RateLimitRequest request = request(domain, descriptor(key, value));

    assertThatThrownBy(() -> SMALL.toCall(request))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage(message);
  }

  @Test
  void toCall_stringsExactlyAtTheirLimits_areAccepted() {
    RateLimitRequest request =
        request("eightchr", descriptor("four", "éééé".substring(1)), descriptor("k", "v"));

    assertThat(SMALL.toCall(request).descriptors()).hasSize(2);
  }
}
