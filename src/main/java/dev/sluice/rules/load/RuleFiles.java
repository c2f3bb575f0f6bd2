package dev.sluice.rules.load;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;

/**
 * Finds and reads the rule files under a path, and hashes them into a version.
 *
 * <p>A directory is walked recursively, following symbolic links, reading {@code *.yaml} and {@code
 * *.yml} files. Every entry whose name starts with {@code .} is skipped, with its subtree: a
 * Kubernetes ConfigMap volume holds each file twice, once through the {@code ..data} symlink and
 * once in a {@code ..<timestamp>} directory, and only the top-level symlinks are the files.
 */
final class RuleFiles {
  /** Hex digits of the SHA-256 kept as the version: plenty to tell contents apart. */
  private static final int VERSION_LENGTH = 12;

  private RuleFiles() {}

  /**
   * @param files sorted by {@link RuleFile#name()}
   * @param problems paths that could not be read; the files read are still listed
   */
  record Listing(List<RuleFile> files, List<RuleProblem> problems) {}

  /**
   * Reads a directory's rule files, or one file. Never throws for I/O problems: they are listed.
   */
  static Listing read(Path root) {
    if (!Files.exists(root)) {
      return new Listing(
          List.of(), List.of(new RuleProblem(root, 0, "config path does not exist")));
    }
    List<RuleProblem> problems = new ArrayList<>();
    List<RuleFile> files = new ArrayList<>();
    if (Files.isDirectory(root)) {
      for (Path path : walk(root, problems)) {
        String name =
            root.relativize(path).toString().replace(path.getFileSystem().getSeparator(), "/");
        readFile(path, name, files, problems);
      }
    } else {
      readFile(root, root.toString(), files, problems);
    }
    files.sort(Comparator.comparing(RuleFile::name));
    return new Listing(List.copyOf(files), List.copyOf(problems));
  }

  private static void readFile(
      Path path, String name, List<RuleFile> files, List<RuleProblem> problems) {
    try {
      files.add(new RuleFile(path, name, Files.readAllBytes(path)));
    } catch (IOException e) {
      problems.add(new RuleProblem(path, 0, "cannot read file: " + e));
    }
  }

  private static List<Path> walk(Path root, List<RuleProblem> problems) {
    List<Path> found = new ArrayList<>();
    SimpleFileVisitor<Path> visitor =
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            return !dir.equals(root) && hidden(dir)
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (hidden(file) || !ruleFileName(file)) {
              return FileVisitResult.CONTINUE;
            }
            if (attrs.isRegularFile()) {
              found.add(file);
            } else if (attrs.isSymbolicLink()) {
              // Walking follows links, so a link seen as a link is one whose target is gone.
              problems.add(new RuleProblem(file, 0, "broken symbolic link"));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            if (!hidden(file)) {
              String why =
                  e instanceof FileSystemLoopException ? "symbolic link loop" : "cannot read: " + e;
              problems.add(new RuleProblem(file, 0, why));
            }
            return FileVisitResult.CONTINUE;
          }
        };
    try {
      Files.walkFileTree(
          root, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE, visitor);
    } catch (IOException e) {
      problems.add(new RuleProblem(root, 0, "cannot read directory: " + e));
    }
    return found;
  }

  private static boolean hidden(Path path) {
    Path name = path.getFileName();
    return name != null && name.toString().startsWith(".");
  }

  private static boolean ruleFileName(Path path) {
    String name = path.getFileName().toString();
    return name.endsWith(".yaml") || name.endsWith(".yml");
  }

  /**
   * Hex SHA-256 prefix over each file's name and content, in the given (sorted) order. Names and
   * lengths are framed so no two different listings hash the same bytes.
   */
  static String version(List<RuleFile> files) {
    MessageDigest digest = sha256();
    for (RuleFile file : files) {
      byte[] name = file.name().getBytes(StandardCharsets.UTF_8);
      digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(name.length).array());
      digest.update(name);
      digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(file.content().length).array());
      digest.update(file.content());
    }
    return HexFormat.of().formatHex(digest.digest()).substring(0, VERSION_LENGTH);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
