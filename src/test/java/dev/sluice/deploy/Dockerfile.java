package dev.sluice.deploy;

import com.google.gson.Gson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A Dockerfile read line by line into stages of instructions: enough of the format for our own
 * file. Joins lines ending in {@code \}, drops comment and blank lines, keeps each instruction's
 * arguments as written (no variable substitution) and reads exec (JSON array) forms.
 */
record Dockerfile(List<Dockerfile.Stage> stages) {
  static final Path FILE = Path.of("Dockerfile");

  record Instruction(String keyword, String arguments) {
    /** The arguments as an exec-form JSON array, e.g. {@code ["java", "-jar", "x.jar"]}. */
    List<String> execForm() {
      return execForm(arguments);
    }

    static List<String> execForm(String json) {
      String[] array = new Gson().fromJson(json.trim(), String[].class);
      if (array == null) {
        throw new AssertionError("not an exec-form array: " + json);
      }
      return Arrays.asList(array);
    }

    /** Whitespace-separated words, e.g. {@code --from=build /a /b}. */
    List<String> words() {
      return List.of(arguments.trim().split("\\s+"));
    }
  }

  /** One {@code FROM} and what follows it up to the next. */
  record Stage(String image, Optional<String> name, List<Instruction> instructions) {
    List<Instruction> all(String keyword) {
      return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
    }

    Instruction only(String keyword) {
      List<Instruction> found = all(keyword);
      if (found.size() != 1) {
        throw new AssertionError("expected one " + keyword + " in stage " + image + ": " + found);
      }
      return found.get(0);
    }

    /** The one {@code COPY} whose destination is {@code destination}. */
    Instruction copyTo(String destination) {
      List<Instruction> found =
          all("COPY").stream()
              .filter(copy -> copy.words().get(copy.words().size() - 1).equals(destination))
              .toList();
      if (found.size() != 1) {
        throw new AssertionError("expected one COPY to " + destination + ": " + found);
      }
      return found.get(0);
    }

    /** The working directory after the stage's last {@code WORKDIR}. */
    String workdir() {
      List<Instruction> workdirs = all("WORKDIR");
      if (workdirs.isEmpty()) {
        throw new AssertionError("no WORKDIR in stage " + image);
      }
      return workdirs.get(workdirs.size() - 1).arguments().trim();
    }
  }

  static Dockerfile load() {
    try {
      return parse(Files.readAllLines(FILE));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Dockerfile parse(List<String> lines) {
    List<Stage> stages = new ArrayList<>();
    List<Instruction> current = null;
    for (Instruction instruction : instructions(lines)) {
      if (instruction.keyword().equals("FROM")) {
        List<String> words = instruction.words();
        Optional<String> name =
            words.size() == 3 && words.get(1).equalsIgnoreCase("AS")
                ? Optional.of(words.get(2))
                : Optional.empty();
        current = new ArrayList<>();
        stages.add(new Stage(words.get(0), name, current));
      } else if (current == null) {
        throw new AssertionError("instruction before FROM: " + instruction);
      } else {
        current.add(instruction);
      }
    }
    return new Dockerfile(List.copyOf(stages));
  }

  private static List<Instruction> instructions(List<String> lines) {
    List<Instruction> instructions = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    for (String line : lines) {
      String trimmed = line.strip();
      if (trimmed.startsWith("#") || (trimmed.isEmpty() && pending.isEmpty())) {
        continue;
      }
      if (trimmed.endsWith("\\")) {
        pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
        continue;
      }
      pending.append(trimmed);
      String text = pending.toString().strip();
      pending.setLength(0);
      int space = text.indexOf(' ');
      instructions.add(
          new Instruction(
              text.substring(0, space).toUpperCase(Locale.ROOT), text.substring(space + 1)));
    }
    return instructions;
  }

  Stage finalStage() {
    return stages.get(stages.size() - 1);
  }

  Stage stage(String name) {
    return stages.stream()
        .filter(stage -> stage.name().equals(Optional.of(name)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no stage " + name));
  }
}
