package dev.sluice.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The build context {@code docker build .} sends: the directory minus what {@code .dockerignore}
 * excludes, and {@code COPY src dest} as Docker applies it. Docker's rules kept here: patterns are
 * relative to the context root (a leading {@code /} and a trailing {@code /} change nothing),
 * {@code *} stays within one path segment and {@code **} spans any number, a pattern excludes a
 * directory's whole content, later {@code !pattern} lines re-include, the last matching line wins.
 */
final class DockerContext {
  private record Rule(PathMatcher matcher, boolean exclude) {}

  private final Path root;
  private final List<Rule> rules;

  private DockerContext(Path root, List<Rule> rules) {
    this.root = root;
    this.rules = rules;
  }

  static DockerContext of(Path root) throws IOException {
    Path ignore = root.resolve(".dockerignore");
    List<String> lines = Files.exists(ignore) ? Files.readAllLines(ignore) : List.of();
    return new DockerContext(
        root,
        lines.stream()
            .map(String::strip)
            .filter(line -> !line.isEmpty() && !line.startsWith("#"))
            .map(DockerContext::rule)
            .toList());
  }

  private static Rule rule(String line) {
    boolean exclude = !line.startsWith("!");
    String pattern = (exclude ? line : line.substring(1)).strip();
    pattern = pattern.replaceAll("^/+", "").replaceAll("/+$", "");
    return new Rule(FileSystems.getDefault().getPathMatcher("glob:" + pattern), exclude);
  }

  /** Whether {@code relative} (to the context root) or one of its parents is excluded. */
  boolean excluded(Path relative) {
    for (Path prefix = relative; prefix != null; prefix = prefix.getParent()) {
      if (excludedItself(prefix)) {
        return true;
      }
    }
    return false;
  }

  private boolean excludedItself(Path relative) {
    boolean excluded = false;
    for (Rule rule : rules) {
      if (rule.matcher().matches(relative)) {
        excluded = rule.exclude();
      }
    }
    return excluded;
  }

  /**
   * {@code COPY a b ... dest} (no {@code --from}) into {@code workdir}: a directory source copies
   * its content into {@code dest}; file sources go into {@code dest} when it is a directory (ends
   * in {@code /}, is {@code .}, or there are several sources), else become {@code dest}.
   */
  void copy(List<String> words, Path workdir) throws IOException {
    if (words.get(0).startsWith("--")) {
      throw new AssertionError("COPY flags are not replayed: " + words);
    }
    List<String> sources = words.subList(0, words.size() - 1);
    String destination = words.get(words.size() - 1);
    Path dest = workdir.resolve(destination).normalize();
    boolean intoDirectory =
        destination.endsWith("/") || destination.equals(".") || sources.size() > 1;
    for (String source : sources) {
      Path relative = Path.of(source).normalize();
      Path from = root.resolve(relative);
      if (!Files.exists(from) || excluded(relative)) {
        throw new AssertionError("COPY " + source + ": not in the build context");
      }
      if (Files.isDirectory(from)) {
        copyTree(relative, dest);
      } else {
        Path to = intoDirectory ? dest.resolve(relative.getFileName()) : dest;
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private void copyTree(Path relativeDir, Path dest) throws IOException {
    Path from = root.resolve(relativeDir);
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path relative = root.relativize(file);
        if (excluded(relative)) {
          continue;
        }
        Path to = dest.resolve(from.relativize(file).toString());
        try {
          Files.createDirectories(to.getParent());
          Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }
}
