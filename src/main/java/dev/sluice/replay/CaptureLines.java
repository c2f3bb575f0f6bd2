package dev.sluice.replay;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The lines of a stream, each at most {@code maxLineBytes} bytes before its {@code \n} (a {@code
 * \r} before it is dropped too), decoded as strict UTF-8. Memory is bounded by the cap: a longer
 * line is refused once the cap is passed, without reading the rest of it, so a file of one huge
 * line cannot exhaust the heap. Not thread-safe: one reader.
 */
final class CaptureLines {
  private static final int READ_BYTES = 1 << 16;

  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] buffer = new byte[READ_BYTES];
  private final CharsetDecoder utf8 =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
  private byte[] line = new byte[256];
  private int lineLength;
  private int position;
  private int limit;

  CaptureLines(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * The next line without its terminator; empty at the end of the stream.
   *
   * @throws IllegalArgumentException for a line over the cap or not valid UTF-8, saying which
   */
  Optional<String> next() throws IOException {
    lineLength = 0;
    boolean any = false;
    while (position < limit || fill()) {
      any = true;
      int newline = indexOfNewline();
      int end = newline < 0 ? limit : newline;
      keep(end - position);
      position = newline < 0 ? limit : newline + 1;
      if (newline >= 0) {
        return Optional.of(decode());
      }
    }
    return any ? Optional.of(decode()) : Optional.empty();
  }

  private boolean fill() throws IOException {
    int read = in.read(buffer);
    position = 0;
    limit = Math.max(read, 0);
    return read > 0;
  }

  private int indexOfNewline() {
    for (int i = position; i < limit; i++) {
      if (buffer[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void keep(int bytes) {
    if ((long) lineLength + bytes > maxLineBytes) {
      throw new IllegalArgumentException(
          "line is longer than the limit of " + maxLineBytes + " bytes (--max-line-bytes)");
    }
    if (lineLength + bytes > line.length) {
      line = Arrays.copyOf(line, (int) Math.min(maxLineBytes, 2L * (lineLength + bytes)));
    }
    System.arraycopy(buffer, position, line, lineLength, bytes);
    lineLength += bytes;
  }

  private String decode() {
    int length = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
    ByteBuffer bytes = ByteBuffer.wrap(line, 0, length);
    try {
      CharBuffer chars = utf8.decode(bytes);
      return chars.toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          "not valid UTF-8 (byte " + (bytes.position() + 1) + " of the line)");
    }
  }
}
