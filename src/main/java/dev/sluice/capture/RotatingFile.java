package dev.sluice.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Lines appended to {@code FILE} until the next would take it past {@code maxBytes}; then {@code
 * FILE} becomes {@code FILE.1}, {@code FILE.1} becomes {@code FILE.2}, and so on, the oldest beyond
 * {@code maxFiles} in all deleted, and a fresh {@code FILE} is started. So the newest lines are
 * always in {@code FILE} and the whole capture never exceeds {@code maxBytes * maxFiles} (a single
 * line longer than {@code maxBytes} gets a file of its own). Not thread-safe: one writer thread.
 */
final class RotatingFile implements AutoCloseable {
  private final Path file;
  private final long maxBytes;
  private final int maxFiles;
  private OutputStream out;
  private long size;

  RotatingFile(Path file, long maxBytes, int maxFiles) {
    this.file = file;
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
  }

  /** Appends {@code line} and a newline (buffered: {@link #flush} makes it visible). */
  void append(String line) throws IOException {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    if (out == null) {
      open();
    }
    if (size > 0 && size + bytes.length > maxBytes) {
      rotate();
    }
    out.write(bytes);
    size += bytes.length;
  }

  void flush() throws IOException {
    if (out != null) {
      out.flush();
    }
  }

  private void open() throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    out =
        new java.io.BufferedOutputStream(
            Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND),
            1 << 16);
    size = Files.size(file);
  }

  private void rotate() throws IOException {
    out.close();
    out = null;
    if (maxFiles == 1) {
      Files.delete(file);
    } else {
      Files.deleteIfExists(numbered(maxFiles - 1));
      for (int i = maxFiles - 2; i >= 1; i--) {
        moveIfExists(numbered(i), numbered(i + 1));
      }
      Files.move(file, numbered(1), StandardCopyOption.REPLACE_EXISTING);
    }
    open();
  }

  private static void moveIfExists(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    } catch (NoSuchFileException e) {
      // Fewer rotations so far than files kept.
    }
  }

  Path numbered(int i) {
    return file.resolveSibling(file.getFileName() + "." + i);
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
  }
}
