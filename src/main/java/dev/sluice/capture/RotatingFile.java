package dev.sluice.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lines appended to {@code FILE} until the next would take it past {@code maxBytes}; then {@code
 * FILE} becomes {@code FILE.1}, {@code FILE.1} becomes {@code FILE.2}, and so on, the oldest beyond
 * {@code maxFiles} in all deleted, and a fresh {@code FILE} is started. So the newest lines are
 * always in {@code FILE} and the whole capture never exceeds {@code maxBytes * maxFiles} (a single
 * line longer than {@code maxBytes} gets a file of its own).
 *
 * <p>Lines wait in memory until {@link #flush}, which says how many reached the file. When a write
 * fails, the part of a line it left is cut off the file again and the lines not written are
 * dropped, not retried: the file holds whole lines only, and a line reported lost never turns up
 * later (a buffered stream would keep a failed buffer and write it on the next success). After a
 * failure the file is opened afresh, checked as at {@link #open}, by the next flush that has lines.
 * The files are opened as {@link CaptureFiles} says: private, never through a link. Not
 * thread-safe: one writer thread.
 */
final class RotatingFile implements AutoCloseable {
  /** Bytes handed to one write call; a longer line is written on its own. */
  private static final int CHUNK_BYTES = 1 << 16;

  /**
   * What one {@link #flush} did.
   *
   * @param lines lines now in the file
   * @param lost lines dropped because a write failed with {@code failure}
   */
  record Flushed(long lines, long lost, Optional<IOException> failure) {
    static final Flushed NOTHING = new Flushed(0, 0, Optional.empty());
  }

  private final Path file;
  private final long maxBytes;
  private final int maxFiles;
  private final List<byte[]> pending = new ArrayList<>();
  private final ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK_BYTES);
  private long pendingBytes;
  private FileChannel channel; // null before open and after a failure
  private long size; // bytes in FILE that are whole, flushed lines
  private long chunkLines; // lines in the chunk
  private long flushedLines; // lines the current flush put in the file

  RotatingFile(Path file, long maxBytes, int maxFiles) {
    this.file = file;
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
  }

  /**
   * Opens {@code FILE} now, so a path that cannot be used fails at startup rather than at the first
   * sampled request.
   *
   * @throws IOException naming the path and why it is refused
   */
  void open() throws IOException {
    if (channel == null) {
      channel = CaptureFiles.openForAppend(file);
      size = channel.size();
    }
  }

  /** Keeps {@code line}, which holds no newline, and a newline for the next {@link #flush}. */
  void append(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    pending.add(bytes);
    pendingBytes += bytes.length;
  }

  /** Bytes appended and not yet flushed. */
  long pendingBytes() {
    return pendingBytes;
  }

  /**
   * Writes the pending lines, rotating on the way; afterwards none is pending, whatever happened.
   */
  Flushed flush() {
    if (pending.isEmpty()) {
      return Flushed.NOTHING;
    }
    flushedLines = 0;
    try {
      open();
      for (byte[] line : pending) {
        put(line);
      }
      writeChunk();
      return new Flushed(flushedLines, 0, Optional.empty());
    } catch (IOException e) {
      abandon();
      return new Flushed(flushedLines, pending.size() - flushedLines, Optional.of(e));
    } finally {
      pending.clear();
      pendingBytes = 0;
    }
  }

  /** Puts {@code line} in the chunk, writing and rotating first as needed. */
  private void put(byte[] line) throws IOException {
    long inFile = size + chunk.position();
    if (inFile > 0 && inFile + line.length > maxBytes) {
      writeChunk();
      rotate();
    }
    if (line.length > chunk.remaining()) {
      writeChunk();
    }
    if (line.length > chunk.capacity()) {
      writeFully(ByteBuffer.wrap(line)); // on its own; counted in size only once it is whole
      size += line.length;
      flushedLines++;
      return;
    }
    chunk.put(line);
    chunkLines++;
  }

  /**
   * Writes what the chunk holds. When the write fails part way (a disk that fills up), the whole
   * lines that reached the file stay and count; only the cut line after them is lost.
   */
  private void writeChunk() throws IOException {
    chunk.flip();
    try {
      writeFully(chunk);
      size += chunk.limit();
      flushedLines += chunkLines;
    } catch (IOException e) {
      int wholeBytes = 0;
      for (int i = 0; i < chunk.position(); i++) {
        if (chunk.get(i) == '\n') {
          wholeBytes = i + 1;
          flushedLines++;
        }
      }
      size += wholeBytes;
      throw e;
    } finally {
      chunk.clear();
      chunkLines = 0;
    }
  }

  private void writeFully(ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      channel.write(bytes);
    }
  }

  /** After a failed write: cuts the file back to its whole lines and forgets the channel. */
  private void abandon() {
    chunk.clear();
    chunkLines = 0;
    if (channel == null) {
      return;
    }
    try (FileChannel failed = channel) {
      failed.truncate(size);
    } catch (IOException e) {
      // Best effort: the next open appends after whatever is there.
    }
    channel = null;
  }

  private void rotate() throws IOException {
    channel.close();
    channel = null;
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

  /** Flushes what is pending (its outcome is the writer's to count before) and closes the file. */
  @Override
  public void close() throws IOException {
    flush();
    if (channel != null) {
      channel.close();
      channel = null;
    }
  }
}
