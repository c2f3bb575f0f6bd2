package dev.sluice.server;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.SluiceJarProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 2,000 calls, each with a 9 KB metadata header (over the 8 KiB the server announces), written by a
 * client that ignores the announced limit, as an attacker's would. Each call must be refused with
 * an answer, the refusals counted in metrics, and the log must grow by a handful of lines without a
 * stack trace (the old code logged a WARNING with a 35-line stack trace per call: ~52,000 lines),
 * while an honest client and {@code /healthcheck} keep their answers.
 */
class MetadataFloodIT {
  private static final int CALLS = 2_000;
  private static final int BATCH = 100;
  private static final Duration BATCH_DEADLINE = Duration.ofSeconds(30);
  private static final String METHOD =
      "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit";
  private static final Map<String, String> BIG_HEADER = Map.of("x-filler", "x".repeat(9 * 1024));

  /** One line when the refusals start and one per 10 s with their count: a few, never thousands. */
  private static final long MAX_LOG_LINES = 20;

  @TempDir Path tmp;

  private SluiceJarProcess sluice;

  @AfterEach
  void stop() throws InterruptedException {
    if (sluice != null) {
      sluice.close();
    }
  }

  @Test
  void callsWithOversizedMetadata_refusedAndCounted_logStaysShortWithoutStackTraces()
      throws Exception {
    sluice = HonestTraffic.startSluice(tmp, List.of("-Xmx256m"), List.of(), Map.of());
    long linesBefore = sluice.lines();

    Map<String, Integer> ends;
    try (HonestTraffic honest = new HonestTraffic(sluice).start()) {
      ends = oversizedCalls();
      assertThat(honest.stop()).as("honest calls that failed meanwhile").isEmpty();
    }

    assertThat(ends)
        .as("how the %d calls ended", CALLS)
        .doesNotContainKeys("grpc-status 0", "unanswered");
    assertThat(sluice.metric("sluice_grpc_refused_total", "reason=\"metadata_size\""))
        .as("calls refused for --grpc-max-metadata-bytes")
        .isEqualTo(CALLS);
    assertThat(sluice.linesWith("\tat ")).as("stack trace lines").isZero();
    assertThat(sluice.lines() - linesBefore)
        .as("lines logged for %d refused calls:\n%s", CALLS, sluice.output())
        .isLessThanOrEqualTo(MAX_LOG_LINES);
    assertThat(sluice.isAlive()).isTrue();
  }

  /**
   * Writes the calls in batches of {@link #BATCH} and reads how each ended; a call with no end (the
   * connection closed or went silent) counts as "unanswered", and the next batch goes on a new
   * connection. Returns the count of each way a call ended.
   */
  private Map<String, Integer> oversizedCalls() throws IOException {
    byte[] message = request("honest", descriptor("user", "attacker")).toByteArray();
    Map<String, Integer> ends = new HashMap<>();
    int sent = 0;
    while (sent < CALLS) {
      try (RawHttp2Client client = RawHttp2Client.connect(sluice.grpcPort())) {
        int answered = BATCH;
        while (sent < CALLS && answered == BATCH) {
          sent += BATCH;
          Map<Integer, String> batch = batch(client, message);
          batch.values().forEach(end -> ends.merge(end, 1, Integer::sum));
          answered = batch.size();
          if (answered < BATCH) {
            ends.merge("unanswered", BATCH - answered, Integer::sum);
          }
        }
      }
    }
    return ends;
  }

  /** How each call of one batch ended; empty when the server had closed the connection. */
  private static Map<Integer, String> batch(RawHttp2Client client, byte[] message)
      throws IOException {
    try {
      client.writeCalls(BATCH, METHOD, message, BIG_HEADER);
    } catch (IOException closed) {
      return Map.of();
    }
    return client.readEnds(BATCH, BATCH_DEADLINE);
  }
}
