package dev.sluice.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {
  @Test
  void safe_lineBreaksAndControls_areEscapedSoNoLineCanBeForged() {
    assertThat(LogText.safe("a\nb\r\nc\td\u0000e\u2028f\\g"))
        .isEqualTo("a\\nb\\r\\nc\\td\\u0000e\\u2028f\\\\g");
  }

  @Test
  void safe_plainText_isUnchanged() {
    assertThat(LogText.safe("domain api user=alice é")).isEqualTo("domain api user=alice é");
  }

  @Test
  void safe_longValue_isCutAndSaysHowMuch() {
    String cut = LogText.safe("x".repeat(LogText.MAX_CHARS + 10));
    assertThat(cut).startsWith("x".repeat(LogText.MAX_CHARS)).endsWith("...(10 more chars)");
  }

  @Test
  void safe_null_isTheWordNull() {
    assertThat(LogText.safe((String) null)).isEqualTo("null");
  }
}
