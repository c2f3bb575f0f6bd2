package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.deploy.Dockerfile.Instruction;
import dev.sluice.deploy.Dockerfile.Stage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays the Dockerfile's build stage the way {@code docker build} runs it, without Docker: an
 * empty directory receives exactly what the stage's {@code COPY} lines name (what {@code
 * .dockerignore} leaves of the context), then the stage's {@code RUN} commands run there in order.
 * A file the build needs that the Dockerfile does not copy fails the build, and so this test.
 *
 * <p>Maven runs offline against this machine's local repository ({@code -o}); the image's own
 * {@code go-offline} step only fills that repository, so it is skipped here.
 */
class DockerBuildReplayIT {
  private static final Path CONTEXT = Path.of("").toAbsolutePath();

  @TempDir Path root;

  @Test
  void buildStage_replayedInAnEmptyDirectory_producesTheJar() throws Exception {
    Dockerfile docker = Dockerfile.load();
    Stage build = docker.stage("build");
    Path workdir = root.resolve(build.workdir().replaceFirst("^/", ""));
    Files.createDirectories(workdir);
    DockerContext context = DockerContext.of(CONTEXT);
    List<String> ran = new ArrayList<>();

    for (Instruction instruction : build.instructions()) {
      switch (instruction.keyword()) {
        case "COPY" -> context.copy(instruction.words(), workdir);
        case "RUN" -> {
          if (!instruction.arguments().contains("go-offline")) {
            run(instruction.arguments(), workdir);
            ran.add(instruction.arguments());
          }
        }
        case "WORKDIR" -> {} // one WORKDIR, applied above
        default -> throw new AssertionError("build stage step not replayed: " + instruction);
      }
    }

    assertThat(ran).as("build commands replayed").isNotEmpty();
    assertThat(workdir.resolve("target/sluice.jar")).isRegularFile();
    assertThat(workdir.resolve("target/native"))
        .isDirectoryContaining("glob:**/libio_grpc_netty_shaded_netty_transport_native_epoll_*.so");
  }

  /** Runs one shell-form {@code RUN} with Maven offline; its output goes to a log on failure. */
  private void run(String command, Path workdir) throws IOException, InterruptedException {
    String offline = command.replaceAll("(^|\\s)mvn\\s", "$1mvn -o ");
    Path log = root.resolve("build.log");
    ProcessBuilder builder =
        new ProcessBuilder("bash", "-c", offline)
            .directory(workdir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    ImageLayer.withJdkTools(builder);
    Process process = builder.start();
    if (!process.waitFor(15, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("timed out: " + offline);
    }
    assertThat(process.exitValue())
        .as("'%s' in a directory holding only what the Dockerfile copies:%n%s", offline, tail(log))
        .isZero();
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
