package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.deploy.Dockerfile.Stage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the image's {@code /bin/ratelimit} with a stand-in {@code java} first on {@code PATH} that
 * records its arguments: the launcher hands java the {@code ENTRYPOINT}'s arguments, {@code serve}
 * and its own arguments unchanged (spaces and quotes included), and replaces itself with java.
 */
class RatelimitLauncherIT {
  @TempDir Path dir;

  @Test
  void launcher_givenArguments_runsEntrypointServeAndThem() throws Exception {
    Stage run = Dockerfile.load().finalStage();
    Path args = dir.resolve("args");
    Path pid = dir.resolve("pid");
    Path java = dir.resolve("java");
    Files.writeString(
        java, "#!/bin/sh\necho $$ > \"$PID_FILE\"\nprintf '%s\\n' \"$@\" > \"$ARGS_FILE\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<String> given = List.of("--xds-node-metadata", "{\"zone\": \"a b\"}", "--log-level=debug");

    List<String> command = new ArrayList<>(List.of(DockerfileTest.launcherSource(run).toString()));
    command.addAll(given);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("PATH", dir + ":/usr/bin:/bin");
    builder.environment().put("ARGS_FILE", args.toString());
    builder.environment().put("PID_FILE", pid.toString());
    Process process = builder.start();
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();

    List<String> expected = new ArrayList<>(run.only("ENTRYPOINT").execForm());
    expected.remove(0); // "java" itself: the stand-in
    expected.addAll(run.only("CMD").execForm());
    expected.addAll(given);
    assertThat(process.exitValue()).isZero();
    assertThat(Files.readAllLines(args)).containsExactlyElementsOf(expected);
    assertThat(Files.readString(pid).strip())
        .as("exec: java has the launcher's pid")
        .isEqualTo(String.valueOf(process.pid()));
  }
}
