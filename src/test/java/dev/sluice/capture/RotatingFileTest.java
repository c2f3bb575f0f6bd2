package dev.sluice.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RotatingFileTest {
  @TempDir Path dir;

  @Test
  void append_pastMaxBytes_rotatesKeepsMaxFilesAndTheNewestLines() throws Exception {
    Path file = dir.resolve("capture.jsonl");
    // Lines of 10 bytes with the newline: 3 fit in 32 bytes.
    try (RotatingFile rotating = new RotatingFile(file, 32, 3)) {
      for (int i = 0; i < 20; i++) {
        rotating.append(String.format("line-%04d", i));
      }
    }

    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("capture.jsonl", "capture.jsonl.1", "capture.jsonl.2");
    }
    List<String> oldestFirst = new ArrayList<>();
    oldestFirst.addAll(Files.readAllLines(dir.resolve("capture.jsonl.2")));
    oldestFirst.addAll(Files.readAllLines(dir.resolve("capture.jsonl.1")));
    oldestFirst.addAll(Files.readAllLines(file));
    assertThat(oldestFirst)
        .containsExactly(
            "line-0012",
            "line-0013",
            "line-0014",
            "line-0015",
            "line-0016",
            "line-0017",
            "line-0018",
            "line-0019");
    for (String name : List.of("capture.jsonl", "capture.jsonl.1", "capture.jsonl.2")) {
      assertThat(Files.size(dir.resolve(name))).isLessThanOrEqualTo(32);
    }
  }

  @Test
  void append_afterRestart_continuesTheExistingFileAndItsSize() throws Exception {
    Path file = dir.resolve("c.jsonl");
    try (RotatingFile first = new RotatingFile(file, 25, 2)) {
      first.append("aaaaaaaaa");
      first.append("bbbbbbbbb");
    }
    try (RotatingFile second = new RotatingFile(file, 25, 2)) {
      second.append("ccccccccc");
    }

    assertThat(Files.readAllLines(dir.resolve("c.jsonl.1")))
        .containsExactly("aaaaaaaaa", "bbbbbbbbb");
    assertThat(Files.readAllLines(file)).containsExactly("ccccccccc");
  }

  @Test
  void append_oneFileKept_startsAgainEmpty() throws Exception {
    Path file = dir.resolve("only.jsonl");
    try (RotatingFile rotating = new RotatingFile(file, 20, 1)) {
      rotating.append("123456789");
      rotating.append("abcdefghi");
      rotating.append("ABCDEFGHI");
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.count()).isEqualTo(1);
    }
    assertThat(Files.readAllLines(file)).containsExactly("ABCDEFGHI");
  }

  @Test
  void flush_linesAppended_reachTheFileOnlyThenAndAreCounted() throws Exception {
    Path file = dir.resolve("c.jsonl");
    try (RotatingFile rotating = new RotatingFile(file, 1 << 20, 2)) {
      rotating.open();
      rotating.append("one");
      rotating.append("two");
      assertThat(Files.size(file)).isZero();

      assertThat(rotating.flush())
          .isEqualTo(new RotatingFile.Flushed(2, 0, java.util.Optional.empty()));
      assertThat(Files.readAllLines(file)).containsExactly("one", "two");
      assertThat(rotating.flush()).isEqualTo(RotatingFile.Flushed.NOTHING);
    }
  }

  @Test
  void open_missingDirectories_createsThem0700AndTheFile0600() throws Exception {
    Path file = dir.resolve("a/b/capture.jsonl");
    try (RotatingFile rotating = new RotatingFile(file, 1 << 20, 2)) {
      rotating.open();
    }

    assertThat(permissions(dir.resolve("a"))).isEqualTo("rwx------");
    assertThat(permissions(dir.resolve("a/b"))).isEqualTo("rwx------");
    assertThat(permissions(file)).isEqualTo("rw-------");
  }

  @Test
  void flush_rotated_everyFileIs0600() throws Exception {
    Path file = dir.resolve("capture.jsonl");
    try (RotatingFile rotating = new RotatingFile(file, 32, 3)) {
      for (int i = 0; i < 20; i++) {
        rotating.append(String.format("line-%04d", i));
        rotating.flush();
      }
    }

    for (String name : List.of("capture.jsonl", "capture.jsonl.1", "capture.jsonl.2")) {
      assertThat(permissions(dir.resolve(name))).as(name).isEqualTo("rw-------");
    }
  }

  @Test
  void open_existingFileOthersCanRead_narrowedToItsOwner() throws Exception {
    Path file = dir.resolve("old.jsonl");
    Files.writeString(file, "kept\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    try (RotatingFile rotating = new RotatingFile(file, 1 << 20, 2)) {
      rotating.open();
    }

    assertThat(permissions(file)).isEqualTo("rw-------");
    assertThat(Files.readAllLines(file)).containsExactly("kept");
  }

  @Test
  void open_symbolicLinkToAnotherFile_refusedAndTheTargetUntouched() throws Exception {
    Path target = dir.resolve("secret.txt");
    Files.writeString(target, "private\n");
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
    Path link = Files.createSymbolicLink(dir.resolve("capture.jsonl"), target);

    try (RotatingFile rotating = new RotatingFile(link, 1 << 20, 2)) {
      assertThatThrownBy(rotating::open)
          .isInstanceOf(IOException.class)
          .hasMessage(
              link
                  + " is a symbolic link; a capture holds request values and is never"
                  + " written through a link (name the file itself)");
      rotating.append("{\"ts\":1}");
      assertThat(rotating.flush().lost()).isEqualTo(1);
    }

    assertThat(Files.readString(target)).isEqualTo("private\n");
    assertThat(Files.isSymbolicLink(link)).isTrue();
  }

  @Test
  void open_characterDevice_refusedAsNotARegularFile() {
    Path devFull = Path.of("/dev/full");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(devFull), "/dev/full exists");
    try (RotatingFile rotating = new RotatingFile(devFull, 1 << 20, 2)) {
      assertThatThrownBy(rotating::open)
          .hasMessage(
              "/dev/full is not a regular file (a device, FIFO or socket); a capture is written to"
                  + " a regular file only");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void open_directory_refusedAsNotARegularFile() throws Exception {
    try (RotatingFile rotating = new RotatingFile(dir, 1 << 20, 2)) {
      assertThatThrownBy(rotating::open)
          .hasMessageContaining("is not a regular file (a directory)");
    }
  }

  private static String permissions(Path path) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
  }
}
