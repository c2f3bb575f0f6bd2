package dev.sluice.service;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProtoValuesTest {
  @Test
  void uint32_aboveTheRange_isClampedNotWrapped() {
    assertThat(Integer.toUnsignedLong(ProtoValues.uint32((1L << 32) + 5))).isEqualTo(0xFFFF_FFFFL);
    assertThat(Integer.toUnsignedLong(ProtoValues.uint32(0xFFFF_FFFFL))).isEqualTo(0xFFFF_FFFFL);
    assertThat(ProtoValues.uint32(-3)).isZero();
    assertThat(ProtoValues.uint32(7)).isEqualTo(7);
  }
}
