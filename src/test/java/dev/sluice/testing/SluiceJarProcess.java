package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The packaged jar ({@code target/sluice.jar}) running {@code serve} as a separate process on free
 * ports, for attack tests: its stdout and stderr go to files in a directory the test owns, so a
 * test can count the lines it logged. No {@code SLUICE_*} variable is inherited from the caller.
 */
public final class SluiceJarProcess implements AutoCloseable {
  private static final Path BASEDIR = Path.of("").toAbsolutePath();
  private static final Path JAR = BASEDIR.resolve("target/sluice.jar");
  private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
  private static final int HEAD_BYTES = 64 * 1024;
  private static final Duration READY_DEADLINE = Duration.ofSeconds(60);
  private static final Pattern READY =
      Pattern.compile("Sluice ready: grpc port (\\d+), http port (\\d+)");

  private final Process process;
  private final Path stdout;
  private final Path stderr;
  private final HttpClient http = HttpClient.newHttpClient();
  private int grpcPort;
  private int httpPort;

  private SluiceJarProcess(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /**
   * Starts {@code java <jvmFlags> -jar sluice.jar serve --grpc-port 0 --http-port 0 <serveArgs>}
   * and waits for its ready line.
   *
   * @param dir where stdout and stderr are written
   * @param env variables set for the process (on top of the caller's, minus {@code SLUICE_*})
   */
  public static SluiceJarProcess start(
      Path dir, List<String> jvmFlags, List<String> serveArgs, Map<String, String> env)
      throws IOException {
    List<String> command = new ArrayList<>(List.of(JAVA));
    command.addAll(jvmFlags);
    command.addAll(List.of("-jar", JAR.toString(), "serve", "--grpc-port", "0", "--http-port"));
    command.add("0");
    command.addAll(serveArgs);
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(BASEDIR.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("SLUICE_"));
    builder.environment().putAll(env);
    SluiceJarProcess started = new SluiceJarProcess(builder.start(), out, err);
    started.awaitReady();
    return started;
  }

  /**
   * Starts {@code serve} at {@code -Xmx<heap>} (exiting on OutOfMemoryError) with {@code rulesYaml}
   * as its one rule file and {@code flags} after the port flags, in a temporary directory of its
   * own, and waits for its ready line.
   */
  public static SluiceJarProcess start(String heap, String rulesYaml, String... flags)
      throws IOException {
    if (!Files.isRegularFile(JAR)) {
      throw new AssertionError(JAR + " is missing: run mvn package first");
    }
    Path dir = Files.createTempDirectory("sluice-jar");
    Path rules = Files.createDirectory(dir.resolve("rules"));
    Files.writeString(rules.resolve("rules.yaml"), rulesYaml);
    List<String> serveArgs = new ArrayList<>(List.of("--config", rules.toString()));
    serveArgs.addAll(List.of(flags));
    return start(dir, List.of("-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError"), serveArgs, Map.of());
  }

  private void awaitReady() {
    Eventually.await(
        READY_DEADLINE,
        "the ready line",
        () -> {
          if (!process.isAlive()) {
            throw new AssertionError("exited before ready:\n" + output());
          }
          Matcher ready = READY.matcher(stdout());
          if (!ready.find()) {
            return false;
          }
          grpcPort = Integer.parseInt(ready.group(1));
          httpPort = Integer.parseInt(ready.group(2));
          return true;
        });
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

  /** GET on the admin HTTP port with a 10 s timeout. */
  public HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The value of the Prometheus sample {@code name} whose labels contain {@code labels} (e.g.
   * {@code reason="max_connections"}), or 0 when /metrics has no such sample.
   */
  public double metric(String name, String labels) throws IOException, InterruptedException {
    String body = get("/metrics").body();
    Pattern sample =
        Pattern.compile(
            "(?m)^"
                + Pattern.quote(name)
                + "(?:\\{[^}]*"
                + Pattern.quote(labels)
                + "[^}]*\\})? ([0-9.eE+]+)$");
    Matcher matcher = sample.matcher(body);
    return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
  }

  /** The sum of every sample of the Prometheus metric {@code name}, whatever its labels. */
  public double metricTotal(String name) throws IOException, InterruptedException {
    Matcher samples =
        Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*\\})? ([0-9.eE+]+)$")
            .matcher(get("/metrics").body());
    double total = 0;
    while (samples.find()) {
      total += Double.parseDouble(samples.group(1));
    }
    return total;
  }

  /** The first 64 KiB written to stdout (the start-up lines; a flood may follow). */
  public String stdout() {
    return head(stdout);
  }

  /** Lines written to stdout and stderr so far. */
  public long lines() {
    return count(stdout, line -> true) + count(stderr, line -> true);
  }

  /** Lines of stdout and stderr so far that contain {@code text}. */
  public long linesWith(String text) {
    return count(stdout, line -> line.contains(text)) + count(stderr, line -> line.contains(text));
  }

  /** The first {@code max} lines of stdout, then of stderr. */
  public List<String> firstLines(int max) {
    List<String> lines = new ArrayList<>(first(stdout, max));
    lines.addAll(first(stderr, max));
    return lines;
  }

  private static List<String> first(Path file, int max) {
    try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
      return lines.limit(max).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The first 64 KiB of stdout then of stderr, for assertion messages. */
  public String output() {
    return head(stdout) + head(stderr);
  }

  /** Streams the file (a flood may have made it hundreds of megabytes). */
  private static long count(Path file, Predicate<String> which) {
    try (Stream<String> lines = Files.lines(file, StandardCharsets.ISO_8859_1)) {
      return lines.filter(which).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String head(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(HEAD_BYTES), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }
}
