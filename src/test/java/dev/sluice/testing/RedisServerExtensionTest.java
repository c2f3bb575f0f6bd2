package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisServerExtensionTest {

  @Test
  void choose_noBinaryAndNoDocker_failsSayingWhatToInstall() {
    assertThatThrownBy(() -> RedisServerExtension.choose(Optional.empty(), () -> false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "redis-server not found on PATH and no Docker: install redis-server"
                + " (apt-get install -y redis-server)");
  }

  @Test
  void choose_binaryFound_runsItWithoutAskingDocker() {
    RedisServer server =
        RedisServerExtension.choose(
            Optional.of(Path.of("/usr/bin/redis-server")),
            () -> {
              throw new AssertionError("docker must not be probed");
            });
    assertThat(server).isInstanceOf(RedisProcess.class);
    server.close();
  }

  @Test
  void findOnPath_skipsDirectoriesWithoutAnExecutable(@TempDir Path tmp) throws IOException {
    Path empty = Files.createDirectory(tmp.resolve("empty"));
    Path bin = Files.createDirectory(tmp.resolve("bin"));
    Path binary = Files.createFile(bin.resolve("redis-server"));
    Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThat(RedisServerExtension.findOnPath("redis-server", empty + ":" + bin)).contains(binary);
    assertThat(RedisServerExtension.findOnPath("redis-server", empty.toString())).isEmpty();
    assertThat(RedisServerExtension.findOnPath("redis-server", null)).isEmpty();
  }
}
