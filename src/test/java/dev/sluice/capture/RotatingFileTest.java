package dev.sluice.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
