package dev.sluice.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Reads a capture lazily, one {@link CapturedRequest} per non-empty line, so a capture of millions
 * of requests is never held in memory. A bad line fails the replay as {@code FILE:LINE: problem}.
 */
public final class CaptureFile implements Iterator<CapturedRequest>, AutoCloseable {
  private final Path path;
  private final BufferedReader reader;
  private int lineNumber;
  private CapturedRequest next;

  public CaptureFile(Path path) throws IOException {
    this.path = path;
    this.reader = Files.newBufferedReader(path);
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    try {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNumber++;
        if (!line.isBlank()) {
          next = parse(line);
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": " + e.getMessage(), e);
    }
  }

  private CapturedRequest parse(String line) {
    try {
      return CapturedRequest.parse(line);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ":" + lineNumber + ": " + e.getMessage(), e);
    }
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
    reader.close();
  }
}
