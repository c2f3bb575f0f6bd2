package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchResultTest {
  private static final LatencySummary LATENCY =
      new LatencySummary(1500, 250_000, 400_000, 900_000, 2_500_000, 7_000_000);

  private static BenchResult result(String mode, double rate, Map<String, Long> errors) {
    BenchResult.Setup setup =
        new BenchResult.Setup("sluice-bench", "127.0.0.1:8081", mode, 64, rate, 4, "hot");
    long errorCount = errors.values().stream().mapToLong(Long::longValue).sum();
    return new BenchResult(
        setup,
        new BenchResult.Counts(1500 + errorCount, 1000, 500, errors),
        Duration.ofSeconds(2),
        LATENCY);
  }

  @Test
  void decisionsPerSecond_answeredRequestsOverTheWindow_errorsNotCounted() {
    assertThat(result("closed", 0, Map.of("UNAVAILABLE", 3L)).decisionsPerSecond())
        .isEqualTo(750.0);
  }

  @Test
  void toText_closedLoop_threeLines() {
    assertThat(result("closed", 0, Map.of()).toText())
        .isEqualTo(
            String.join(
                System.lineSeparator(),
                "sluice-bench -> 127.0.0.1:8081: closed loop, concurrency 64, 4 descriptor(s) per"
                    + " request, keys hot, 2.0 s",
                "decisions/s 750.0  goodput/s 750.0  sent 1500  ok 1000  over_limit 500  errors 0",
                "latency p50 0.250 ms  p90 0.400 ms  p99 0.900 ms  p99.9 2.500 ms  max 7.000 ms",
                ""));
  }

  @Test
  void toText_openLoopWithErrors_namesRateAndErrorsByCodeSorted() {
    String text = result("open", 800, Map.of("UNAVAILABLE", 3L, "DEADLINE_EXCEEDED", 2L)).toText();

    assertThat(text).contains("open loop at 800.0/s").contains("sent 1505").contains("errors 5");
    assertThat(text)
        .endsWith("errors by code: DEADLINE_EXCEEDED 2, UNAVAILABLE 3" + System.lineSeparator());
  }

  @Test
  void toText_firstErrorMessages_onePerCodeAfterTheCounts() {
    BenchResult plain = result("closed", 0, Map.of("UNAVAILABLE", 3L));
    BenchResult result =
        new BenchResult(
            plain.setup(),
            plain.counts(),
            plain.measured(),
            plain.latency(),
            Map.of("UNAVAILABLE", "io exception"),
            -1);

    assertThat(result.toText())
        .endsWith(
            "errors by code: UNAVAILABLE 3"
                + System.lineSeparator()
                + "first UNAVAILABLE: io exception"
                + System.lineSeparator());
    assertThat(result.toJson()).isEqualTo(plain.toJson());
  }

  @Test
  void toJson_oneFlatLineWithEveryField() {
    assertThat(result("open", 800, Map.of("UNAVAILABLE", 3L)).toJson())
        .isEqualTo(
            "{\"tool\":\"sluice-bench\",\"target\":\"127.0.0.1:8081\",\"mode\":\"open\","
                + "\"concurrency\":64,\"rate\":800.0,\"descriptors\":4,\"keys\":\"hot\","
                + "\"duration_s\":2.000,\"sent\":1503,\"ok\":1000,\"over_limit\":500,\"errors\":3,"
                + "\"decisions_per_s\":750.0,\"goodput_per_s\":750.0,\"p50_us\":250.0,\"p90_us\":400.0,\"p99_us\":900.0,"
                + "\"p999_us\":2500.0,\"max_us\":7000.0,\"cpu_s\":-1}");
  }

  @Test
  void processCpu_known_inTextPerAnsweredRequestAndInJsonAsSeconds() {
    BenchResult plain = result("closed", 0, Map.of());
    BenchResult result =
        new BenchResult(
            plain.setup(),
            plain.counts(),
            plain.measured(),
            plain.latency(),
            Map.of(),
            3_000_000_000L);

    assertThat(result.toText())
        .endsWith(
            "process CPU 3.000 s in the window, 2000.0 us per answered request"
                + System.lineSeparator());
    assertThat(result.toJson()).endsWith(",\"cpu_s\":3.000}");
  }

  @Test
  void toJson_quotesAndBackslashesInText_escaped() {
    BenchResult.Setup setup = new BenchResult.Setup("t\"x", "a\\b", "closed", 1, 0, 1, "random");
    BenchResult result =
        new BenchResult(
            setup, new BenchResult.Counts(0, 0, 0, Map.of()), Duration.ofSeconds(1), LATENCY);

    assertThat(result.toJson()).startsWith("{\"tool\":\"t\\\"x\",\"target\":\"a\\\\b\",");
  }
}
