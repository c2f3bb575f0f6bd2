package dev.sluice.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.FakeClock;
import dev.sluice.testing.Hammer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded limiter on the memory store, time driven by a {@link FakeClock}. */
class SluiceLimiterTest {
  private static final String RULES =
      """
      domain: api
      descriptors:
        - key: user
          rate_limit: {unit: minute, requests_per_unit: 3, name: per-user}
        - key: bucket
          rate_limit: {unit: second, requests_per_unit: 2, algorithm: token_bucket, burst: 4}
        - key: free
          rate_limit: {unlimited: true}
      """;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_040);
  private SluiceLimiter limiter;

  @AfterEach
  void close() {
    if (limiter != null) {
      limiter.close();
    }
  }

  private SluiceLimiter limiter(String yaml) {
    limiter = SluiceLimiter.builder().rules(yaml).clock(clock).build();
    return limiter;
  }

  private Decision decide(String domain, Descriptor descriptor, int hits) {
    return limiter.shouldRateLimit(domain, List.of(descriptor), hits).toCompletableFuture().join();
  }

  @Test
  void shouldRateLimit_pastTheLimit_refusesUntilTheWindowEnds() {
    limiter(RULES);
    Descriptor alice = Descriptor.of("user", "alice");
    for (int i = 0; i < 3; i++) {
      assertThat(decide("api", alice, 1).allowed()).isTrue();
    }
    Decision fourth = decide("api", alice, 1);
    assertThat(fourth.overLimit()).isTrue();
    Decision.Status status = fourth.statuses().get(0);
    assertThat(status.overLimit()).isTrue();
    assertThat(status.remaining()).isZero();
    assertThat(status.limit())
        .contains(new Decision.Limit("per-user", 3, "minute", "fixed_window"));
    assertThat(status.untilReset()).contains(Duration.ofSeconds(60));
    assertThat(decide("api", Descriptor.of("user", "bob"), 1).allowed()).isTrue();
    clock.advance(Duration.ofMinutes(1));
    assertThat(decide("api", alice, 1).allowed()).isTrue();
  }

  @Test
  void shouldRateLimit_hits_chargesThatManyAndZeroOnlyChecks() {
    limiter(RULES);
    Descriptor carol = Descriptor.of("user", "carol");
    assertThat(decide("api", carol, 2).statuses().get(0).remaining()).isEqualTo(1);
    assertThat(decide("api", carol, 0).statuses().get(0).remaining()).isEqualTo(1);
    assertThat(decide("api", carol, 0).allowed()).isTrue();
    assertThat(decide("api", carol, 2).overLimit()).isTrue();
  }

  @Test
  void shouldRateLimit_tokenBucket_refillsWithTheClock() {
    limiter(RULES);
    Descriptor bucket = Descriptor.of("bucket", "b1");
    assertThat(decide("api", bucket, 4).allowed()).isTrue();
    assertThat(decide("api", bucket, 1).overLimit()).isTrue();
    clock.advance(Duration.ofMillis(500));
    assertThat(decide("api", bucket, 1).allowed()).isTrue();
    assertThat(decide("api", bucket, 1).overLimit()).isTrue();
  }

  @Test
  void shouldRateLimit_unknownDomainOrUnmatched_isNotLimitedAndNotCounted() {
    limiter(RULES);
    Decision unknown = decide("other", Descriptor.of("user", "alice"), 1_000);
    assertThat(unknown.allowed()).isTrue();
    assertThat(unknown.statuses()).hasSize(1);
    assertThat(unknown.statuses().get(0).limit()).isEmpty();
    Decision unmatched = decide("api", Descriptor.of("nobody", "x"), 1_000);
    assertThat(unmatched.allowed()).isTrue();
    assertThat(unmatched.statuses().get(0).limit()).isEmpty();
  }

  @Test
  void shouldRateLimit_severalDescriptors_answersEachInOrder() {
    limiter(RULES);
    Decision decision =
        limiter
            .shouldRateLimit(
                "api", List.of(Descriptor.of("free", "x"), Descriptor.of("user", "dave")), 4)
            .toCompletableFuture()
            .join();
    assertThat(decision.overLimit()).isTrue();
    assertThat(decision.statuses())
        .extracting(Decision.Status::overLimit)
        .containsExactly(false, true);
    assertThat(decision.statuses().get(0).remaining()).isEqualTo(4_294_967_295L);
  }

  @Test
  void shouldRateLimit_manyThreads_allowExactlyTheLimit() throws Exception {
    limiter(RULES);
    int allowed =
        Hammer.countAllowed(
            16, 10, thread -> () -> decide("api", Descriptor.of("user", "shared"), 1).allowed());
    assertThat(allowed).isEqualTo(3);
  }

  @Test
  void shouldRateLimit_afterClose_throws() {
    limiter(RULES).close();
    assertThatThrownBy(() -> decide("api", Descriptor.of("user", "alice"), 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void shouldRateLimit_badInput_throwsNamingIt() {
    limiter(RULES);
    Descriptor alice = Descriptor.of("user", "alice");
    assertThatThrownBy(() -> limiter.shouldRateLimit("", List.of(alice), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("domain");
    assertThatThrownBy(() -> limiter.shouldRateLimit("api", List.of(), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("descriptor");
    assertThatThrownBy(() -> limiter.shouldRateLimit("api", List.of(alice), -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hits must be >= 0: -1");
    assertThatThrownBy(() -> new Descriptor(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one entry");
    assertThatThrownBy(() -> Descriptor.of("", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key must not be empty");
  }

  @Test
  void build_invalidRules_throwsNamingTheLine() {
    String bad =
        """
        domain: api
        descriptors:
          - key: user
            rate_limit: {unit: fortnight, requests_per_unit: 3}
        """;
    assertThatThrownBy(() -> SluiceLimiter.builder().rules(bad).clock(clock).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid rules")
        .hasMessageContaining("rules.yaml:4")
        .hasMessageContaining("fortnight");
  }

  @Test
  void build_withoutRules_throws() {
    assertThatThrownBy(() -> SluiceLimiter.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no rules");
  }

  @Test
  void build_badRedisUrl_throwsNamingIt() {
    assertThatThrownBy(() -> SluiceLimiter.builder().rules(RULES).redis("http://x:1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("redis://");
  }

  @Test
  void reloadRules_changedDirectory_servesNewRulesAndRejectsInvalidOnes(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("api.yaml");
    Files.writeString(file, RULES);
    limiter = SluiceLimiter.builder().rules(dir).clock(clock).build();
    assertThat(limiter.reloadRules()).isFalse();
    Files.writeString(file, RULES.replace("requests_per_unit: 3", "requests_per_unit: 1"));
    assertThat(limiter.reloadRules()).isTrue();
    Descriptor erin = Descriptor.of("user", "erin");
    assertThat(decide("api", erin, 1).allowed()).isTrue();
    assertThat(decide("api", erin, 1).overLimit()).isTrue();
    String served = limiter.rulesVersion();
    Files.writeString(file, "domain: api\ndescriptors: 7\n");
    assertThatThrownBy(limiter::reloadRules)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid rules");
    assertThat(limiter.rulesVersion()).isEqualTo(served);
  }
}
