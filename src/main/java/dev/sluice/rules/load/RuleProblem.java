package dev.sluice.rules.load;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One thing wrong with the rule files, precise enough to fix without guessing.
 *
 * @param file the file (or, for a missing path, the path) the problem is in
 * @param line 1-based line of the offending YAML node; 0 when no line applies (an empty or
 *     unreadable file, a path that does not exist)
 * @param message what is wrong, naming the bad value
 */
public record RuleProblem(Path file, int line, String message) {
  public RuleProblem {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(message, "message");
    if (line < 0) {
      throw new IllegalArgumentException("line must be >= 0: " + line);
    }
  }

  /** {@code FILE:LINE: message}, or {@code FILE: message} when {@code line} is 0. */
  @Override
  public String toString() {
    return line == 0 ? file + ": " + message : file + ":" + line + ": " + message;
  }
}
