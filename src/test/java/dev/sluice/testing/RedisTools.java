package dev.sluice.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Finds the Redis binaries the topology fixtures need and runs short-lived tools. */
final class RedisTools {
  private static final long TOOL_SECONDS = 60;

  private RedisTools() {}

  /** The binary on PATH, or a failure saying what to install. */
  static Path require(String name) {
    return RedisServerExtension.findOnPath(name, System.getenv("PATH"))
        .orElseThrow(
            () ->
                new IllegalStateException(
                    name + " not found on PATH: install it (apt-get install -y redis-server)"));
  }

  /**
   * Runs a tool to its end and returns its output.
   *
   * @throws IllegalStateException with the output when it fails or runs over a minute
   */
  static String run(Path binary, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(args);
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
      byte[] output = process.getInputStream().readAllBytes();
      if (!process.waitFor(TOOL_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish");
      }
      String text = new String(output, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", command) + " exited " + process.exitValue() + ":\n" + text);
      }
      return text;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + command, e);
    }
  }
}
