package dev.sluice.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Reads a capture lazily, one {@link CapturedRequest} per non-blank line, so a capture of millions
 * of requests is never held in memory, and no line longer than {@code maxLineBytes} is either. The
 * first bad line (too long, not UTF-8, not a capture line) stops the reading with a {@link BadLine}
 * saying {@code FILE:LINE: problem}. Not thread-safe: one reader.
 */
public final class CaptureFile implements Iterator<CapturedRequest>, AutoCloseable {
  /** The default line cap: a captured request is usually well under a kilobyte. */
  public static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;

  /** A line that is not a capture line; the message is {@code FILE:LINE: problem}. */
  public static final class BadLine extends IllegalArgumentException {
    BadLine(String message) {
      super(message);
    }
  }

  private final Path path;
  private final InputStream in;
  private final CaptureLines lines;
  private long lineNumber;
  private CapturedRequest next;

  /** A file whose lines may be up to {@link #DEFAULT_MAX_LINE_BYTES}. */
  public CaptureFile(Path path) throws IOException {
    this(path, DEFAULT_MAX_LINE_BYTES);
  }

  /**
   * @param maxLineBytes the longest line read, bytes before the newline
   */
  public CaptureFile(Path path, int maxLineBytes) throws IOException {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("max line bytes must be >= 1: " + maxLineBytes);
    }
    this.path = path;
    this.in = Files.newInputStream(path);
    this.lines = new CaptureLines(in, maxLineBytes);
  }

  /**
   * @throws BadLine at the first line that is not a capture line
   * @throws UncheckedIOException when the file cannot be read
   */
  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    try {
      for (Optional<String> line = read(); line.isPresent(); line = read()) {
        if (!line.get().isBlank()) {
          next = parse(line.get());
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": " + e.getMessage(), e);
    }
  }

  private Optional<String> read() throws IOException {
    lineNumber++;
    try {
      return lines.next();
    } catch (IllegalArgumentException e) {
      throw bad(e);
    }
  }

  private CapturedRequest parse(String line) {
    try {
      return CapturedRequest.parse(line);
    } catch (IllegalArgumentException e) {
      throw bad(e);
    }
  }

  private BadLine bad(IllegalArgumentException e) {
    BadLine bad = new BadLine(path + ":" + lineNumber + ": " + e.getMessage());
    bad.initCause(e);
    return bad;
  }

  @Override
  public CapturedRequest next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    CapturedRequest taken = next;
    next = null;
    return taken;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
