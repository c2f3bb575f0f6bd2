package dev.sluice.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.CaptureConfig;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.metrics.SluiceMetrics;
import dev.sluice.replay.CaptureFile;
import dev.sluice.replay.CapturedRequest;
import dev.sluice.rules.Entry;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.threads.DaemonThreadFactory;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureWriterTest {
  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final SluiceMetrics metrics = new SluiceMetrics(new PrometheusRegistry());

  private CaptureConfig config(double sample, boolean hash) {
    return new CaptureConfig(Optional.of(dir.resolve("capture.jsonl")), sample, hash, 64 << 20, 2);
  }

  private static RateLimitCall call(String... keysAndValues) {
    List<DescriptorRequest> descriptors = new ArrayList<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      descriptors.add(DescriptorRequest.of(new Entry(keysAndValues[i], keysAndValues[i + 1])));
    }
    return new RateLimitCall("shop", descriptors, 0);
  }

  private List<CapturedRequest> read() throws Exception {
    List<CapturedRequest> lines = new ArrayList<>();
    try (CaptureFile file = new CaptureFile(dir.resolve("capture.jsonl"))) {
      file.forEachRemaining(lines::add);
    }
    return lines;
  }

  private String metricsText() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metrics.writeText(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void offer_everyRequestSampled_writesReplayLinesWithTimestampsInOrder() throws Exception {
    CaptureWriter writer =
        new CaptureWriter(config(1.0, false), clock, metrics, new DaemonThreadFactory("t")).start();
    writer.offer(call("user", "alice"));
    clock.advance(Duration.ofMillis(250));
    writer.offer(
        new RateLimitCall(
            "shop",
            List.of(DescriptorRequest.of(new Entry("user", "bob"), new Entry("path", "/a"))),
            3));
    writer.close();

    assertThat(read())
        .containsExactly(
            new CapturedRequest(
                1_700_000_000_000L, "shop", List.of(List.of(new Entry("user", "alice"))), 0),
            new CapturedRequest(
                1_700_000_000_250L,
                "shop",
                List.of(List.of(new Entry("user", "bob"), new Entry("path", "/a"))),
                3));
    assertThat(metricsText()).contains("sluice_capture_requests_total{result=\"written\"} 2.0");
  }

  @Test
  void offer_whileRunning_lineReachesTheFileWithoutClosing() throws Exception {
    CaptureWriter writer =
        new CaptureWriter(config(1.0, false), clock, metrics, new DaemonThreadFactory("t")).start();
    try {
      writer.offer(call("user", "early"));
      Eventually.await(
          Duration.ofSeconds(5),
          "the line in the file",
          () -> {
            try {
              return read().size() == 1;
            } catch (Exception e) {
              return false;
            }
          });
    } finally {
      writer.close();
    }
  }

  @Test
  void offer_hashValues_keepsKeysHidesValuesAndKeepsEqualValuesEqual() throws Exception {
    CaptureWriter writer =
        new CaptureWriter(config(1.0, true), clock, metrics, new DaemonThreadFactory("t")).start();
    writer.offer(call("user", "10.0.0.1"));
    writer.offer(call("user", "10.0.0.2"));
    writer.offer(call("user", "10.0.0.1"));
    writer.close();

    List<String> values = read().stream().map(r -> r.descriptors().get(0).get(0).value()).toList();
    assertThat(read())
        .allSatisfy(r -> assertThat(r.descriptors().get(0).get(0).key()).isEqualTo("user"));
    assertThat(values).allSatisfy(v -> assertThat(v).matches("#[0-9a-f]{32}"));
    assertThat(values.get(0)).isEqualTo(values.get(2)).isNotEqualTo(values.get(1));
  }

  @Test
  void offer_queueFull_dropsAndCountsWithoutBlocking() throws Exception {
    // Never started: nothing drains the queue of 4.
    CaptureWriter writer =
        new CaptureWriter(config(1.0, false), clock, metrics, new DaemonThreadFactory("t"), 4);
    for (int i = 0; i < 10; i++) {
      writer.offer(call("user", "u" + i));
    }
    writer.close();

    assertThat(metricsText()).contains("sluice_capture_requests_total{result=\"dropped\"} 6.0");
  }

  @Test
  void offer_sampleHalf_capturesAboutHalfFromManyThreads() throws Exception {
    CaptureWriter writer =
        new CaptureWriter(config(0.5, false), clock, metrics, new DaemonThreadFactory("t"), 100_000)
            .start();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < 5_000; i++) {
                  writer.offer(call("user", "u" + i));
                }
              });
      thread.start();
      threads.add(thread);
    }
    go.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    writer.close();

    // 20,000 draws at 0.5: the standard deviation is about 71, so 9,000..11,000 is 14 of them.
    assertThat(read().size()).isBetween(9_000, 11_000);
    assertThat(metricsText()).doesNotContain("result=\"dropped\"} 1");
  }
}
