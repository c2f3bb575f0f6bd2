package dev.sluice.cli;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the packaged {@code target/sluice.jar} as an operator would: exit codes, one-line errors,
 * the ready line, the health check, SIGTERM and the {@code SLUICE_*} environment twins. Every wait
 * has a deadline and every process is killed after each test.
 */
class CliIT {
  private static final Path BASEDIR = Path.of("").toAbsolutePath();
  private static final Path JAR = BASEDIR.resolve("target/sluice.jar");
  private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final Duration PROMPT_STOP = Duration.ofSeconds(10);

  /**
   * Each process here lives a second or two: the client compiler alone starts it with about a third
   * less CPU (measured on `check`), which counts when the suite shares two cores.
   */
  private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

  private static final Pattern READY =
      Pattern.compile(
          "Sluice ready: grpc port (\\d+), http port (\\d+), store (\\w+), (\\d+) domains");

  @TempDir Path tmp;

  private final List<Process> processes = new ArrayList<>();
  private int runs;

  @AfterEach
  void killProcesses() throws InterruptedException {
    for (Process process : processes) {
      process.destroyForcibly();
      process.waitFor(PROMPT_STOP.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  // --- check ---------------------------------------------------------------------------------

  @Test
  void check_shippedRules_exitsZeroWithASummary() throws Exception {
    Result result = run(Map.of(), "check", "--config", "config/rules");

    assertThat(result.exit()).isZero();
    assertThat(result.stdout())
        .matches(
            "OK: 1 file\\(s\\), 1 domain\\(s\\), \\d+ rule\\(s\\), version [0-9a-f]+\\n"
                + "(  edge\\.\\S+: [^\\n]+\\n)+");
    assertThat(result.stderr()).isEmpty();
  }

  @Test
  void check_invalidDirectory_exitsOneWithFileLineMessages() throws Exception {
    Path rules = Files.createDirectory(tmp.resolve("rules"));
    Files.writeString(
        rules.resolve("a.yaml"),
        """
        domain: a
        descriptors:
          - key: user
            rate_limit:
              unit: fortnight
              requests_per_unit: 1
        """);
    Files.writeString(
        rules.resolve("b.yaml"),
        """
        domain: b
        descriptors:
          - key: user
            ratelimit: {unit: second, requests_per_unit: 1}
        """);

    Result result = run(Map.of(), "check", "--config", rules.toString());

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.stdout()).isEmpty();
    assertThat(result.stderrLines())
        .hasSize(3)
        .satisfies(
            lines -> {
              assertThat(lines.get(0)).startsWith(rules.resolve("a.yaml") + ":5: ");
              assertThat(lines.get(0)).contains("invalid rate limit unit 'fortnight'");
              assertThat(lines.get(1)).startsWith(rules.resolve("b.yaml") + ":4: ");
              assertThat(lines.get(1)).contains("unknown field 'ratelimit'");
              assertThat(lines.get(2)).isEqualTo("2 problem(s) in " + rules);
            });
  }

  @Test
  void noArguments_printsUsage_andExitsTwo() throws Exception {
    Result result = run(Map.of());

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.stderr()).contains("Usage: sluice").contains("serve");
  }

  @Test
  void version_isThePomVersionFromTheManifest() throws Exception {
    Result result = run(Map.of(), "-V");

    assertThat(result.exit()).isZero();
    assertThat(result.stdout().strip()).matches("sluice \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
  }

  // --- startup failures ----------------------------------------------------------------------

  @Test
  void serve_unknownFlag_exitsTwoWithOneLine() throws Exception {
    Result result = run(Map.of(), "serve", "--no-such-flag");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.stderrLines()).singleElement().asString().contains("--no-such-flag");
    assertNoStackTrace(result);
  }

  @Test
  void serve_missingConfigPath_exitsOneWithOneLine() throws Exception {
    Path nowhere = tmp.resolve("nowhere");

    Result result =
        run(
            Map.of(),
            "serve",
            "--config",
            nowhere.toString(),
            "--grpc-port",
            "0",
            "--http-port",
            "0");

    assertThat(result.exit()).as("README: a missing config path exits 1").isEqualTo(1);
    assertThat(result.stderrLines()).singleElement().asString().contains(nowhere.toString());
    assertNoStackTrace(result);
  }

  @Test
  void serve_unreachableRedis_startsAnywayAndReportsUnhealthy() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }

    Process process =
        start(
            Map.of(),
            "serve",
            "--config",
            "config/rules",
            "--store",
            "redis",
            "--redis-url",
            "redis://127.0.0.1:" + closedPort,
            "--failure-mode",
            "allow",
            "--grpc-port",
            "0",
            "--http-port",
            "0");
    Matcher ready = awaitReady(process);

    HttpResponse<String> health = healthcheck(Integer.parseInt(ready.group(2)));
    assertThat(health.statusCode()).isEqualTo(503);
    assertThat(health.body())
        .contains("redis")
        .contains("127.0.0.1:" + closedPort)
        .contains("allow");
    assertThat(stdoutOf(process)).doesNotContain("Exception");
  }

  @Test
  void serve_portInUse_exitsNonZeroWithOneLineNamingThePort() throws Exception {
    try (ServerSocket busy = new ServerSocket(0)) {
      String port = Integer.toString(busy.getLocalPort());
      for (List<String> ports :
          List.of(
              List.of("--grpc-port", port, "--http-port", "0"),
              List.of("--grpc-port", "0", "--http-port", port))) {
        List<String> args = new ArrayList<>(List.of("serve", "--config", "config/rules"));
        args.addAll(ports);

        Result result = run(Map.of(), args.toArray(String[]::new));

        assertThat(result.exit()).as("exit of %s", ports).isNotZero();
        assertThat(result.stderrLines())
            .as("stderr of %s", ports)
            .singleElement()
            .asString()
            .contains("cannot listen")
            .contains("port " + port);
        assertNoStackTrace(result);
      }
    }
  }

  // --- serving -------------------------------------------------------------------------------

  @Test
  void serve_freePorts_logsReadyAnswersAndExitsZeroOnSigterm() throws Exception {
    Process process =
        start(
            Map.of(), "serve", "--config", "config/rules", "--grpc-port", "0", "--http-port", "0");
    Matcher ready = awaitReady(process);
    int grpcPort = Integer.parseInt(ready.group(1));
    int httpPort = Integer.parseInt(ready.group(2));

    assertThat(grpcPort).isPositive();
    assertThat(httpPort).isPositive().isNotEqualTo(grpcPort);
    HttpResponse<String> health = healthcheck(httpPort);
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("OK\n");
    assertThat(shouldRateLimitOnEdge(grpcPort).getOverallCode())
        .isEqualTo(RateLimitResponse.Code.OK);

    process.destroy();

    assertThat(process.waitFor(PROMPT_STOP.toMillis(), TimeUnit.MILLISECONDS))
        .as("exited within %s of SIGTERM", PROMPT_STOP)
        .isTrue();
    assertThat(process.exitValue()).isZero();
    assertThat(stderrOf(process)).isEmpty();
  }

  @Test
  void serve_envTwins_configAndPortsComeFromTheEnvironment() throws Exception {
    Path rules = Files.createDirectory(tmp.resolve("env-rules"));
    String descriptors =
        "descriptors:\n  - key: k\n    rate_limit: {unit: second, requests_per_unit: 1}\n";
    Files.writeString(rules.resolve("one.yaml"), "domain: one\n" + descriptors);
    Files.writeString(rules.resolve("two.yaml"), "domain: two\n" + descriptors);

    Process process =
        start(
            Map.of(
                "SLUICE_CONFIG", rules.toString(),
                "SLUICE_GRPC_PORT", "0",
                "SLUICE_HTTP_PORT", "0"),
            "serve");
    Matcher ready = awaitReady(process);

    assertThat(ready.group(4)).as("domains").isEqualTo("2");
    assertThat(Integer.parseInt(ready.group(1))).isNotIn(0, 8081);
    assertThat(Integer.parseInt(ready.group(2))).isNotIn(0, 8080);
    assertThat(healthcheck(Integer.parseInt(ready.group(2))).statusCode()).isEqualTo(200);
  }

  @Test
  void serve_flagAndEnvTwin_theFlagWins() throws Exception {
    Process process =
        start(
            Map.of(
                "SLUICE_CONFIG", tmp.resolve("nowhere").toString(),
                "SLUICE_STORE", "redis",
                "SLUICE_REDIS_URL", "redis://127.0.0.1:1",
                "SLUICE_GRPC_PORT", "0",
                "SLUICE_HTTP_PORT", "0"),
            "serve",
            "--config",
            "config/rules",
            "--store",
            "memory");
    Matcher ready = awaitReady(process);

    assertThat(ready.group(3)).as("store").isEqualTo("memory");
    assertThat(ready.group(4)).as("domains").isEqualTo("1");
  }

  @Test
  void serve_sigtermWithAConnectedClient_stillExitsZeroPromptly() throws Exception {
    Process process =
        start(
            Map.of(), "serve", "--config", "config/rules", "--grpc-port", "0", "--http-port", "0");
    int grpcPort = Integer.parseInt(awaitReady(process).group(1));
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
    try {
      RateLimitServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(DEADLINE.toSeconds(), TimeUnit.SECONDS)
          .shouldRateLimit(request("edge", descriptor("remote_address", "10.0.0.1")));

      process.destroy();

      assertThat(process.waitFor(PROMPT_STOP.toMillis(), TimeUnit.MILLISECONDS))
          .as("exited within %s of SIGTERM although Envoy-like client stays connected", PROMPT_STOP)
          .isTrue();
      assertThat(process.exitValue()).isZero();
    } finally {
      channel.shutdownNow();
    }
  }

  // --- helpers -------------------------------------------------------------------------------

  private record Result(int exit, String stdout, String stderr) {
    List<String> stderrLines() {
      return stderr.lines().toList();
    }
  }

  private static void assertNoStackTrace(Result result) {
    for (String output : List.of(result.stdout(), result.stderr())) {
      assertThat(output)
          .doesNotContain("\tat ")
          .doesNotContain("Caused by:")
          .doesNotContain("Exception in thread");
    }
  }

  /** Runs a command that ends by itself, within the deadline. */
  private Result run(Map<String, String> env, String... args) throws Exception {
    Process process = start(env, args);
    if (!process.waitFor(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("still running after " + DEADLINE + ": " + List.of(args));
    }
    return new Result(process.exitValue(), stdoutOf(process), stderrOf(process));
  }

  /**
   * Starts the jar with only the given {@code SLUICE_*} variables set. Output goes to files, so a
   * chatty process can never block on a full pipe.
   */
  private Process start(Map<String, String> env, String... args) throws IOException {
    int run = ++runs;
    List<String> command = new ArrayList<>(List.of(JAVA, C1_ONLY, "-jar", JAR.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(BASEDIR.toFile())
            .redirectOutput(tmp.resolve("stdout-" + run).toFile())
            .redirectError(tmp.resolve("stderr-" + run).toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("SLUICE_"));
    builder.environment().putAll(env);
    Process process = builder.start();
    processes.add(process);
    return process;
  }

  private Matcher awaitReady(Process process) throws IOException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < end) {
      Matcher ready = READY.matcher(stdoutOf(process));
      if (ready.find()) {
        return ready;
      }
      if (!process.isAlive()) {
        throw new AssertionError(
            "exited with "
                + process.exitValue()
                + " before ready:\n"
                + stdoutOf(process)
                + stderrOf(process));
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    throw new AssertionError("no ready line within " + DEADLINE + ":\n" + stdoutOf(process));
  }

  private String stdoutOf(Process process) throws IOException {
    return Files.readString(tmp.resolve("stdout-" + (processes.indexOf(process) + 1)));
  }

  private String stderrOf(Process process) throws IOException {
    return Files.readString(tmp.resolve("stderr-" + (processes.indexOf(process) + 1)));
  }

  private static HttpResponse<String> healthcheck(int httpPort) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/healthcheck"))
            .timeout(DEADLINE)
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static RateLimitResponse shouldRateLimitOnEdge(int grpcPort) throws InterruptedException {
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
    try {
      return RateLimitServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(DEADLINE.toSeconds(), TimeUnit.SECONDS)
          .shouldRateLimit(request("edge", descriptor("remote_address", "10.0.0.1")));
    } finally {
      channel.shutdownNow().awaitTermination(PROMPT_STOP.toSeconds(), TimeUnit.SECONDS);
    }
  }
}
