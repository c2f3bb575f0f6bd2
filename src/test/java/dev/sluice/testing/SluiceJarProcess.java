package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The packaged jar ({@code target/sluice.jar}, built by {@code mvn package}) serving as its own
 * process, as an operator runs it, for tests that attack it: a heap of the test's choosing and
 * {@code -XX:+ExitOnOutOfMemoryError}, so an out-of-memory anywhere ends the process instead of
 * hiding in a log. Rules come from text; both ports are free ports, read from the ready line. The
 * test's own {@code SLUICE_*} variables are not passed on.
 */
public final class SluiceJarProcess implements AutoCloseable {
  public static final Path JAR = Path.of("").toAbsolutePath().resolve("target/sluice.jar");
  private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern READY =
      Pattern.compile("Sluice ready: grpc port (\\d+), http port (\\d+)");

  private final Path dir;
  private final Process process;
  private int grpcPort;
  private int httpPort;

  private SluiceJarProcess(Path dir, Process process) {
    this.dir = dir;
    this.process = process;
  }

  /**
   * Starts {@code serve} with {@code rulesYaml} as its one rule file and {@code flags} after the
   * port flags, and waits for its ready line.
   *
   * @param heap the {@code -Xmx} value, e.g. {@code 256m}
   * @throws AssertionError when the jar is missing, or exits or stays silent before ready
   */
  public static SluiceJarProcess start(String heap, String rulesYaml, String... flags)
      throws IOException {
    if (!Files.isRegularFile(JAR)) {
      throw new AssertionError(JAR + " is missing: run mvn package first");
    }
    Path dir = Files.createTempDirectory("sluice-jar");
    Path rules = Files.createDirectory(dir.resolve("rules"));
    Files.writeString(rules.resolve("rules.yaml"), rulesYaml);
    List<String> command =
        new ArrayList<>(
            List.of(
                JAVA,
                "-Xmx" + heap,
                "-XX:+ExitOnOutOfMemoryError",
                "-jar",
                JAR.toString(),
                "serve",
                "--config",
                rules.toString(),
                "--grpc-port",
                "0",
                "--http-port",
                "0"));
    command.addAll(List.of(flags));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectOutput(dir.resolve("stdout").toFile())
            .redirectError(dir.resolve("stderr").toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("SLUICE_"));
    SluiceJarProcess started = new SluiceJarProcess(dir, builder.start());
    started.awaitReady();
    return started;
  }

  private void awaitReady() {
    Matcher[] ready = new Matcher[1];
    Eventually.await(
        READY_TIMEOUT,
        "the ready line of " + JAR,
        () -> {
          Matcher m = READY.matcher(output());
          if (m.find()) {
            ready[0] = m;
            return true;
          }
          if (!process.isAlive()) {
            throw new AssertionError("exited before ready:\n" + output());
          }
          return false;
        });
    grpcPort = Integer.parseInt(ready[0].group(1));
    httpPort = Integer.parseInt(ready[0].group(2));
  }

  public int grpcPort() {
    return grpcPort;
  }

  public int httpPort() {
    return httpPort;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Everything the process wrote so far, stdout then stderr. */
  public String output() {
    try {
      return Files.readString(dir.resolve("stdout")) + Files.readString(dir.resolve("stderr"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Kills the process and removes its files. */
  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
