package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.deploy.Dockerfile.Stage;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs the Dockerfile's {@code HEALTHCHECK} command as written (it needs only bash, which the
 * Ubuntu-based JRE image has) against a real Sluice and against ports that must fail it.
 */
class DockerHealthcheckIT {

  /** The exec-form command after {@code CMD} in the final stage's {@code HEALTHCHECK}. */
  static List<String> command(Stage stage) {
    String arguments = stage.only("HEALTHCHECK").arguments();
    int cmd = arguments.indexOf(" CMD ");
    if (cmd < 0) {
      throw new AssertionError("HEALTHCHECK without CMD: " + arguments);
    }
    return Dockerfile.Instruction.execForm(arguments.substring(cmd + " CMD ".length()));
  }

  @Test
  void healthcheck_servingSluice_passes() throws Exception {
    try (RunningSluice sluice =
        RunningSluice.onRulesAt(Path.of("config/rules"), FakeClock.atEpochSecond(0))) {
      assertThat(runHealthcheck(sluice.sluice().httpPort())).isZero();
    }
  }

  @Test
  void healthcheck_nothingListening_fails() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    assertThat(runHealthcheck(port)).isNotZero();
  }

  @Test
  void healthcheck_unhealthyAnswer_fails() throws Exception {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/healthcheck",
        exchange -> {
          exchange.sendResponseHeaders(503, -1);
          exchange.close();
        });
    server.start();
    try {
      assertThat(runHealthcheck(server.getAddress().getPort())).isNotZero();
    } finally {
      server.stop(0);
    }
  }

  /** The exit code, as Docker would see it, with the admin port given the image's way. */
  private static int runHealthcheck(int httpPort) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command(Dockerfile.load().finalStage()));
    builder.environment().put("SLUICE_HTTP_PORT", String.valueOf(httpPort));
    builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process process = builder.start();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("healthcheck did not finish within 10 s");
    }
    return process.exitValue();
  }
}
