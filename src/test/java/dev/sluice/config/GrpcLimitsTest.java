package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GrpcLimitsTest {
  @Test
  void defaults_aThousandCallsPerConnection() {
    GrpcLimits limits = GrpcLimits.defaults();

    assertThat(limits.maxConcurrentCallsPerConnection()).isEqualTo(100);
    assertThat(limits.maxConnections()).isEqualTo(10_000);
    assertThat(limits.maxQueuedBytes()).isEqualTo(1 << 20);
    assertThat(limits.maxResetsPerSecond()).isEqualTo(1_000);
    assertThat(limits.maxMetadataBytes()).isEqualTo(8192);
  }

  @Test
  void new_valuesOutOfRange_refusedNamingTheSettingAndValue() {
    assertThatThrownBy(() -> new GrpcLimits(0, 1, 1 << 20, 0, 8192))
        .hasMessage("grpc max concurrent calls per connection must be >= 1: 0");
    assertThatThrownBy(() -> new GrpcLimits(1, 0, 1 << 20, 0, 8192))
        .hasMessage("grpc max connections must be >= 1: 0");
    assertThatThrownBy(() -> new GrpcLimits(1, 1, 65_536, 0, 8192))
        .hasMessage("grpc max queued bytes must be >= 131072: 65536");
    assertThatThrownBy(() -> new GrpcLimits(1, 1, 1 << 20, -1, 8192))
        .hasMessage("grpc max resets per second must be >= 0: -1");
    assertThatThrownBy(() -> new GrpcLimits(1, 1, 1 << 20, 0, 100))
        .hasMessage("grpc max metadata bytes must be >= 1024: 100");
  }

  @Test
  void new_noResetLimit_allowed() {
    assertThat(new GrpcLimits(1, 1, 1 << 20, 0, 8192).maxResetsPerSecond()).isZero();
  }
}
