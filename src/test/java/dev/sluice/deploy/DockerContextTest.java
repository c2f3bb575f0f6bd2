package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code .dockerignore} and {@code COPY} as Docker applies them, for the build replay. */
class DockerContextTest {
  @TempDir Path context;
  @TempDir Path workdir;

  @Test
  void excluded_followsDockerPatterns() throws Exception {
    Files.writeString(
        context.resolve(".dockerignore"), "target/\n/.git\n*.iml\ndocs/**\n!docs/keep.md\n");
    DockerContext docker = DockerContext.of(context);

    assertThat(docker.excluded(Path.of("target/sluice.jar"))).isTrue();
    assertThat(docker.excluded(Path.of(".git"))).isTrue();
    assertThat(docker.excluded(Path.of("a.iml"))).isTrue();
    assertThat(docker.excluded(Path.of("src/a.iml"))).as("* stays in one segment").isFalse();
    assertThat(docker.excluded(Path.of("docs/x/y.md"))).isTrue();
    assertThat(docker.excluded(Path.of("docs/keep.md"))).isFalse();
    assertThat(docker.excluded(Path.of("src/main/A.java"))).isFalse();
  }

  @Test
  void copy_directoryAndFile_landWhereDockerPutsThem() throws Exception {
    Files.writeString(context.resolve(".dockerignore"), "src/skip.txt\n");
    Files.createDirectories(context.resolve("src/main"));
    Files.writeString(context.resolve("src/main/A.java"), "a");
    Files.writeString(context.resolve("src/skip.txt"), "x");
    Files.writeString(context.resolve("pom.xml"), "p");
    DockerContext docker = DockerContext.of(context);

    docker.copy(List.of("pom.xml", "."), workdir);
    docker.copy(List.of("src", "./src"), workdir);

    assertThat(workdir.resolve("pom.xml")).hasContent("p");
    assertThat(workdir.resolve("src/main/A.java")).hasContent("a");
    assertThat(workdir.resolve("src/skip.txt")).doesNotExist();
  }

  @Test
  void copy_ignoredOrMissingSource_fails() throws Exception {
    Files.writeString(context.resolve(".dockerignore"), "target\n");
    Files.createDirectories(context.resolve("target"));
    DockerContext docker = DockerContext.of(context);

    assertThatThrownBy(() -> docker.copy(List.of("target", "./target"), workdir))
        .hasMessageContaining("not in the build context");
    assertThatThrownBy(() -> docker.copy(List.of("proto", "./proto"), workdir))
        .hasMessageContaining("not in the build context");
  }
}
