package dev.sluice.capture;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.replay.CaptureFile;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.JarProcess;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capture file's attacks, against the packaged jar. A capture holds raw descriptor values (API
 * keys, client addresses): a symbolic link planted at {@code --capture-file} must not redirect it
 * into another file, a device must not be taken for a file, what Sluice creates is private, and a
 * file that stops taking writes (a file-size limit, {@code ulimit -f}: EFBIG as on a full disk) is
 * counted and logged truthfully: a line is {@code written} only once it is in the file, and a
 * failing stretch gives one WARN when it starts and one INFO when it ends.
 */
class CaptureFileIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final Pattern WARN_FAILING =
      Pattern.compile("(?m)^.*WARN .*capture to .* failing.*$");
  private static final Pattern WRITING_AGAIN =
      Pattern.compile("(?m)^.*INFO .*writing again; (\\d+) requests were lost while it failed$");

  @TempDir Path tmp;

  private Path rules;
  private JarProcess sluice;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void rules() throws Exception {
    rules = Files.createDirectory(tmp.resolve("rules"));
    Files.writeString(
        rules.resolve("shop.yaml"),
        """
        domain: shop
        descriptors:
          - key: user
            rate_limit: {unit: second, requests_per_unit: 1000}
        """);
  }

  @AfterEach
  void stop() throws Exception {
    if (sluice != null) {
      sluice.close();
    }
  }

  private JarProcess serve(JarProcess.Launch launch, Path capture) throws Exception {
    sluice =
        JarProcess.start(
            tmp,
            launch,
            "serve",
            "--config",
            rules.toString(),
            "--grpc-port",
            "0",
            "--http-port",
            "0",
            "--capture-file",
            capture.toString(),
            "--capture-sample",
            "1",
            "--capture-max-bytes",
            Integer.toString(1 << 20));
    return sluice;
  }

  @Test
  void serve_captureFileIsASymlinkToAPrivateFile_refusesToStartAndLeavesTheTarget()
      throws Exception {
    Path target = tmp.resolve("other-service-secret.txt");
    Files.writeString(target, "private\n");
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
    Path link = Files.createSymbolicLink(tmp.resolve("capture.jsonl"), target);

    JarProcess process = serve(JarProcess.Launch.of(), link);

    assertThat(process.awaitExit(DEADLINE)).isEqualTo(1);
    assertThat(process.stderr())
        .contains(
            "sluice: --capture-file: "
                + link
                + " is a symbolic link; a capture holds request values and is never written"
                + " through a link (name the file itself)");
    assertThat(process.stdout()).doesNotContain("Sluice ready");
    assertThat(Files.readString(target)).isEqualTo("private\n");
    assertThat(permissions(target)).isEqualTo("rw-------");
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void serve_captureFileIsDevFull_refusesToStartAsNotARegularFile() throws Exception {
    JarProcess process = serve(JarProcess.Launch.of(), Path.of("/dev/full"));

    assertThat(process.awaitExit(DEADLINE)).isEqualTo(1);
    assertThat(process.stderr())
        .contains(
            "sluice: --capture-file: /dev/full is not a regular file (a device, FIFO or socket)");
    assertThat(process.stdout()).doesNotContain("Sluice ready");
  }

  @Test
  void serve_fileStopsTakingWrites_countsTruthfullyOneWarnPerStretchAndAnInfoWhenItEnds()
      throws Exception {
    Path capture = tmp.resolve("private/nested/capture.jsonl");
    // 8 KiB: about 80 capture lines fit, then every write fails with EFBIG.
    JarProcess process = serve(new JarProcess.Launch(List.of("-XX:-UsePerfData"), 8), capture);
    Matcher ready = process.awaitReady(DEADLINE);

    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", Integer.parseInt(ready.group(1)))
            .usePlaintext()
            .build();
    int httpPort = Integer.parseInt(ready.group(2));
    try {
      Traffic traffic = new Traffic(channel, httpPort);
      for (int round = 0; round < 40 && traffic.counted("failed") == 0; round++) {
        traffic.send(25);
      }
      assertThat(traffic.counted("failed")).as("writes failed past the limit").isPositive();
      traffic.send(100); // more of the same stretch

      long written = traffic.counted("written");
      assertThat(lines(capture)).as("lines in the file = written").isEqualTo(written);
      assertThat(written + traffic.counted("failed") + traffic.counted("dropped"))
          .isEqualTo(traffic.sent);
      assertThat(WARN_FAILING.matcher(process.stdout()).results().count())
          .as("WARN lines for one failing stretch:\n%s", process.stdout())
          .isEqualTo(1);
      assertThat(process.stdout()).doesNotContain("writing again");

      // The operator frees space: writes succeed again, the stretch ends with one INFO.
      try (FileChannel file = FileChannel.open(capture, StandardOpenOption.WRITE)) {
        file.truncate(0);
      }
      traffic.send(5);
      Eventually.await(
          DEADLINE,
          "the INFO ending the stretch",
          () -> process.stdout().contains("writing again"));
      assertThat(lines(capture)).isEqualTo(traffic.counted("written") - written);
      Matcher again = WRITING_AGAIN.matcher(process.stdout());
      assertThat(again.find()).isTrue();
      assertThat(Long.parseLong(again.group(1))).isEqualTo(traffic.counted("failed"));
      assertThat(again.find()).as("one INFO").isFalse();
      assertThat(WARN_FAILING.matcher(process.stdout()).results().count()).isEqualTo(1);

      assertThat(permissions(tmp.resolve("private"))).isEqualTo("rwx------");
      assertThat(permissions(tmp.resolve("private/nested"))).isEqualTo("rwx------");
      assertThat(permissions(capture)).isEqualTo("rw-------");
    } finally {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  /** Whole lines only, each a capture line replay reads. */
  private static long lines(Path capture) throws Exception {
    String text = Files.readString(capture);
    assertThat(text.isEmpty() || text.endsWith("\n")).as("ends with a whole line").isTrue();
    long count = 0;
    try (CaptureFile file = new CaptureFile(capture)) {
      for (; file.hasNext(); file.next()) {
        count++;
      }
    }
    return count;
  }

  private static String permissions(Path path) throws Exception {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
  }

  /** Requests through the RLS port, each waited for until the capture has accounted for it. */
  private final class Traffic {
    private final RateLimitServiceGrpc.RateLimitServiceBlockingStub rls;
    private final int httpPort;
    long sent;

    Traffic(ManagedChannel channel, int httpPort) {
      this.rls = RateLimitServiceGrpc.newBlockingStub(channel);
      this.httpPort = httpPort;
    }

    void send(int requests) {
      for (int i = 0; i < requests; i++) {
        rls.withDeadlineAfter(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
            .shouldRateLimit(request("shop", descriptor("user", "u" + sent)));
        sent++;
      }
      Eventually.await(
          DEADLINE,
          "every request written, failed or dropped",
          () -> counted("written") + counted("failed") + counted("dropped") == sent);
    }

    long counted(String result) throws Exception {
      String metrics =
          http.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics"))
                      .timeout(DEADLINE)
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      Matcher value =
          Pattern.compile(
                  "(?m)^sluice_capture_requests_total\\{result=\"" + result + "\"} ([0-9.eE+]+)$")
              .matcher(metrics);
      return value.find() ? (long) Double.parseDouble(value.group(1)) : 0;
    }
  }
}
