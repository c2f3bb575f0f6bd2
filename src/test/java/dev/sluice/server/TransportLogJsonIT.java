package dev.sluice.server;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.SluiceJarProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code LOG_FORMAT=json}, what grpc-java reports through java.util.logging (here: calls
 * refused for oversized headers) comes out as JSON lines like Sluice's own, not as JUL's two-line
 * text on stderr (the old output: "WARNING: Stream Error" and a stack trace, whatever the format).
 */
class TransportLogJsonIT {
  private static final int CALLS = 10;
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String METHOD =
      "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit";

  @TempDir Path tmp;

  private SluiceJarProcess sluice;

  @AfterEach
  void stop() throws InterruptedException {
    if (sluice != null) {
      sluice.close();
    }
  }

  @Test
  void transportError_jsonFormat_loggedAsOneJsonLine() throws Exception {
    sluice =
        HonestTraffic.startSluice(
            tmp, List.of("-Xmx256m"), List.of(), Map.of("LOG_FORMAT", "json"));
    try (RawHttp2Client client = RawHttp2Client.connect(sluice.grpcPort())) {
      byte[] message = request("honest", descriptor("user", "x")).toByteArray();
      client.writeCalls(CALLS, METHOD, message, Map.of("x-filler", "x".repeat(9 * 1024)));
      assertThat(client.readEnds(CALLS, DEADLINE)).hasSize(CALLS);
    }
    Eventually.await(
        DEADLINE, "the refusal's log line", () -> sluice.linesWith("gRPC call refused") > 0);

    List<String> lines = sluice.firstLines(1_000);
    for (String line : lines) {
      assertThat(isJsonObject(line)).as("a JSON line: %s\nof:\n%s", line, lines).isTrue();
    }
    JsonObject refused =
        lines.stream()
            .filter(line -> line.contains("gRPC call refused"))
            .map(line -> JsonParser.parseString(line).getAsJsonObject())
            .findFirst()
            .orElseThrow();
    assertThat(refused.get("level").getAsString()).isEqualTo("WARN");
    assertThat(refused.get("logger").getAsString()).isEqualTo(TransportReport.class.getName());
    assertThat(refused.get("message").getAsString()).contains("--grpc-max-metadata-bytes");
    assertThat(refused.has("stack_trace")).as("a stack trace").isFalse();
  }

  private static boolean isJsonObject(String line) {
    try {
      return JsonParser.parseString(line).isJsonObject();
    } catch (RuntimeException e) {
      return false;
    }
  }
}
