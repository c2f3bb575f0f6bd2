package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReferenceMetricsConfigTest {
  @Test
  void parseAddress_goForms() {
    assertThat(ReferenceMetricsConfig.parseAddress(":19001"))
        .contains(new InetSocketAddress(19001));
    assertThat(ReferenceMetricsConfig.parseAddress("127.0.0.1:9090"))
        .contains(new InetSocketAddress("127.0.0.1", 9090));
    assertThat(ReferenceMetricsConfig.parseAddress("[::1]:0"))
        .contains(new InetSocketAddress("::1", 0));
    assertThat(ReferenceMetricsConfig.parseAddress("")).isEmpty();
    assertThat(ReferenceMetricsConfig.parseAddress(null)).isEmpty();
  }

  @Test
  void parseAddress_badForms_nameTheText() {
    assertThatThrownBy(() -> ReferenceMetricsConfig.parseAddress("19001"))
        .hasMessage("reference metrics address must be host:port or :port: 19001");
    assertThatThrownBy(() -> ReferenceMetricsConfig.parseAddress(":http"))
        .hasMessage("reference metrics address has no valid port: :http");
    assertThatThrownBy(() -> ReferenceMetricsConfig.parseAddress(":70000"))
        .hasMessage("reference metrics port must be 0..65535: :70000");
  }

  @Test
  void path_mustBeAbsolute() {
    assertThatThrownBy(
            () -> new ReferenceMetricsConfig(Optional.empty(), "metrics", Optional.empty(), false))
        .hasMessage("reference metrics path must start with '/': metrics");
  }
}
