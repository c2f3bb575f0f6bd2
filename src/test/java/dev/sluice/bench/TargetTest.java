package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TargetTest {

  @Test
  void parse_hostPortAndBracketedIpv6() {
    assertThat(Target.parse("127.0.0.1:8081")).isEqualTo(new Target("127.0.0.1", 8081));
    assertThat(Target.parse("[::1]:9")).isEqualTo(new Target("::1", 9));
    assertThat(Target.parse("[::1]:9").toString()).isEqualTo("[::1]:9");
    assertThatThrownBy(() -> Target.parse("localhost")).hasMessageContaining("'localhost'");
    assertThatThrownBy(() -> Target.parse("h:0")).hasMessageContaining(": 0");
  }
}
