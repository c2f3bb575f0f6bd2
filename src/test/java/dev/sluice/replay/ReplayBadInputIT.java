package dev.sluice.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.JarProcess;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice replay} on hostile input, as the packaged jar with a 128 MB heap ({@code
 * -XX:+ExitOnOutOfMemoryError}, so running out of memory is an exit code, not a hang): a line of
 * 256 MiB is refused at the line cap with {@code FILE:LINE}, a million distinct keys across ended
 * windows replay to the end (the store drops ended windows on the simulated clock), and malformed
 * lines end as {@code FILE:LINE: problem} with exit 1 and no stack trace.
 */
class ReplayBadInputIT {
  private static final Duration DEADLINE = Duration.ofMinutes(4);
  private static final JarProcess.Launch SMALL_HEAP =
      JarProcess.Launch.of("-Xmx128m", "-XX:+ExitOnOutOfMemoryError");

  /**
   * For the runs that stop at a bad line within a second: the client compiler alone starts the
   * process with about a third less CPU, which counts when the suite shares two cores.
   */
  private static final JarProcess.Launch SMALL_HEAP_SHORT_RUN =
      JarProcess.Launch.of("-Xmx128m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1");

  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path tmp;

  private Path rules;
  private JarProcess replay;

  @BeforeEach
  void rules() throws Exception {
    rules = Files.createDirectory(tmp.resolve("rules"));
    Files.writeString(
        rules.resolve("shop.yaml"),
        """
        domain: shop
        descriptors:
          - key: user
            rate_limit: {unit: second, requests_per_unit: 10}
        """);
  }

  @AfterEach
  void stop() throws Exception {
    if (replay != null) {
      replay.close();
    }
  }

  private JarProcess replay(JarProcess.Launch launch, Path input) throws Exception {
    replay =
        JarProcess.start(
            tmp, launch, "replay", "--config", rules.toString(), "--input", input.toString());
    return replay;
  }

  @Test
  void replay_lineOf256MiB_smallHeap_failsAtTheCapNotOutOfMemory() throws Exception {
    Path input = tmp.resolve("huge-line.jsonl");
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(input), 1 << 20)) {
      out.write(line(T0, "u1").getBytes(StandardCharsets.UTF_8));
      out.write("{\"ts\":1700000000001,\"domain\":\"".getBytes(StandardCharsets.UTF_8));
      byte[] mebibyte = new byte[1 << 20];
      Arrays.fill(mebibyte, (byte) 'a');
      for (int i = 0; i < 256; i++) {
        out.write(mebibyte);
      }
      out.write("\"}\n".getBytes(StandardCharsets.UTF_8));
    }

    JarProcess process = replay(SMALL_HEAP_SHORT_RUN, input);

    assertThat(process.awaitExit(DEADLINE)).as(process.stderr()).isEqualTo(1);
    assertThat(process.stderr())
        .isEqualTo(
            input + ":2: line is longer than the limit of 1048576 bytes (--max-line-bytes)\n");
    assertThat(process.stdout()).doesNotContain("OutOfMemoryError");
  }

  @Test
  void replay_millionDistinctKeysAcrossEndedWindows_smallHeap_completes() throws Exception {
    Path input = tmp.resolve("million.jsonl");
    // One request per simulated millisecond, each with its own 40-character key: a thousand keys
    // per one-second window, a thousand windows. Kept all at once they need more than the heap.
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(input), 1 << 20)) {
      for (int i = 0; i < 1_000_000; i++) {
        String key = "key-" + "0".repeat(36 - Integer.toString(i).length()) + i;
        out.write(line(T0 + i, key).getBytes(StandardCharsets.UTF_8));
      }
    }

    JarProcess process = replay(SMALL_HEAP, input);

    assertThat(process.awaitExit(DEADLINE)).as(process.stdout() + process.stderr()).isZero();
    assertThat(process.stdout())
        .startsWith("1000000 requests over 1000.0 s simulated; peak 1000 decisions/s")
        .containsPattern("shop\\.user +1000000 +1000000 +0 +0 +1000");
  }

  @Test
  void replay_descriptorNotAnObject_fileLineProblemExitOneNoStackTrace() throws Exception {
    assertBadLine(
        "{\"ts\":1,\"domain\":\"shop\",\"descriptors\":[1]}\n".getBytes(StandardCharsets.UTF_8),
        "'descriptors[0]' must be an object, found the number 1");
  }

  @Test
  void replay_hitsAnObject_fileLineProblemExitOneNoStackTrace() throws Exception {
    assertBadLine(
        line(T0, "u2").replace("\"hits\":0", "\"hits\":{}").getBytes(StandardCharsets.UTF_8),
        "'hits' must be an integer, found an object");
  }

  @Test
  void replay_hitsAboveTheRlsMaximum_fileLineProblemExitOne() throws Exception {
    assertBadLine(
        line(T0, "u2")
            .replace("\"hits\":0", "\"hits\":9223372036854775807")
            .getBytes(StandardCharsets.UTF_8),
        "'hits': hits_addend 9223372036854775807 is above the maximum of 4294967295");
  }

  @Test
  void replay_timestampLongMin_fileLineProblemExitOne() throws Exception {
    assertBadLine(
        line(Long.MIN_VALUE, "u2").getBytes(StandardCharsets.UTF_8),
        "'ts' must be epoch milliseconds in [0, 253402300799999]: -9223372036854775808");
  }

  @Test
  void replay_invalidUtf8_fileLineProblemExitOne() throws Exception {
    byte[] line = line(T0, "caf_").getBytes(StandardCharsets.UTF_8);
    int at = new String(line, StandardCharsets.UTF_8).indexOf("caf_") + 3;
    line[at] = (byte) 0xE9; // Latin-1 é
    assertBadLine(line, "not valid UTF-8 (byte " + (at + 1) + " of the line)");
  }

  private void assertBadLine(byte[] bad, String problem) throws Exception {
    Path input = tmp.resolve("bad.jsonl");
    try (OutputStream out = Files.newOutputStream(input)) {
      out.write(line(T0, "u1").getBytes(StandardCharsets.UTF_8));
      out.write(bad);
    }

    JarProcess process = replay(SMALL_HEAP_SHORT_RUN, input);

    assertThat(process.awaitExit(DEADLINE)).isEqualTo(1);
    assertThat(process.stderr()).isEqualTo(input + ":2: " + problem + "\n");
    assertThat(process.stdout()).doesNotContain("\tat ").doesNotContain("Exception");
  }

  private static String line(long ts, String user) {
    return "{\"ts\":"
        + ts
        + ",\"domain\":\"shop\",\"descriptors\":[{\"entries\":[{\"key\":\"user\",\"value\":\""
        + user
        + "\"}]}],\"hits\":0}\n";
  }
}
