package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.rules.Entry;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequestTemplateTest {

  private static List<String> entries(RateLimitDescriptor descriptor) {
    return descriptor.getEntriesList().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
  }

  @Test
  void build_placeholder_replacedInEveryValueThatHoldsIt() {
    RequestTemplate template =
        new RequestTemplate(
            "api", List.of(new Entry("tenant", "t-{key}"), new Entry("user", "{key}")), 1, 0);

    RateLimitRequest request = template.build("42");

    assertThat(request.getDomain()).isEqualTo("api");
    assertThat(request.getDescriptorsCount()).isEqualTo(1);
    assertThat(entries(request.getDescriptors(0))).containsExactly("tenant=t-42", "user=42");
    assertThat(request.getHitsAddend()).isZero();
  }

  @Test
  void build_noPlaceholder_keyAppendedToTheLastEntry() {
    RequestTemplate template =
        new RequestTemplate(
            "api", List.of(new Entry("path", "/api"), new Entry("user", "u-")), 1, 0);

    assertThat(entries(template.build("7").getDescriptors(0)))
        .containsExactly("path=/api", "user=u-7");
  }

  @Test
  void build_fourDescriptors_eachGetsTheKeySuffixedWithItsIndex() {
    RequestTemplate template = new RequestTemplate("api", List.of(new Entry("user", "")), 4, 3);

    RateLimitRequest request = template.build("hot");

    assertThat(request.getDescriptorsList())
        .extracting(d -> d.getEntries(0).getValue())
        .containsExactly("hot.0", "hot.1", "hot.2", "hot.3");
    assertThat(request.getHitsAddend()).isEqualTo(3);
  }

  @Test
  void build_maxUint32HitsAddend_sentAsUnsigned() {
    RequestTemplate template =
        new RequestTemplate("api", List.of(new Entry("user", "")), 1, 4_294_967_295L);

    assertThat(Integer.toUnsignedLong(template.build("k").getHitsAddend()))
        .isEqualTo(4_294_967_295L);
  }

  @Test
  void parseEntry_splitsAtTheFirstEquals() {
    assertThat(RequestTemplate.parseEntry("k=a=b")).isEqualTo(new Entry("k", "a=b"));
    assertThat(RequestTemplate.parseEntry("k=")).isEqualTo(new Entry("k", ""));
    assertThatThrownBy(() -> RequestTemplate.parseEntry("=v")).hasMessageContaining("'=v'");
    assertThatThrownBy(() -> RequestTemplate.parseEntry("novalue"))
        .hasMessageContaining("KEY=VALUE");
  }

  @Test
  void new_invalidShape_rejectedNamingTheValue() {
    List<Entry> entries = List.of(new Entry("user", ""));
    assertThatThrownBy(() -> new RequestTemplate("", entries, 1, 0)).hasMessageContaining("domain");
    assertThatThrownBy(() -> new RequestTemplate("d", List.of(), 1, 0))
        .hasMessageContaining("entry");
    assertThatThrownBy(() -> new RequestTemplate("d", entries, 0, 0)).hasMessageContaining(": 0");
    assertThatThrownBy(() -> new RequestTemplate("d", entries, 1, 4_294_967_296L))
        .hasMessageContaining("4294967296");
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void encode_anyShape_exactlyTheBytesProtobufWritesForBuild(RequestTemplate template, String key)
      throws Exception {
    byte[] encoded = template.encode(key);

    assertThat(encoded).isEqualTo(template.build(key).toByteArray());
    assertThat(RateLimitRequest.parseFrom(encoded)).isEqualTo(template.build(key));
  }

  static Stream<Arguments> shapes() {
    String longValue = "v".repeat(300); // lengths past one varint byte
    return Stream.of(
        Arguments.of(new RequestTemplate("api", List.of(new Entry("user", "u-")), 1, 0), "42"),
        Arguments.of(
            new RequestTemplate(
                "api", List.of(new Entry("tenant", "t-{key}"), new Entry("user", "{key}")), 1, 0),
            "7"),
        Arguments.of(new RequestTemplate("api", List.of(new Entry("user", "")), 4, 3), "hot"),
        Arguments.of(
            new RequestTemplate("api", List.of(new Entry("user", "")), 1, 4_294_967_295L), "k"),
        // an empty value is left out by proto3, the entry itself is not
        Arguments.of(
            new RequestTemplate("api", List.of(new Entry("path", ""), new Entry("user", "")), 2, 0),
            "x"),
        Arguments.of(
            new RequestTemplate("dömain", List.of(new Entry("ключ", longValue)), 3, 1), "ü€"));
  }
}
