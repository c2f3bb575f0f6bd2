package dev.sluice.admin;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.io.Content;

/**
 * Reads a request body whole without ever blocking a thread: each chunk is taken when Jetty has it,
 * and the reader asks to be called again when there is more. Stops reading as soon as the body is
 * over {@code maxBytes} ({@link TooLarge}) or {@link #body} was completed from outside (a
 * deadline). Runs on Jetty's I/O threads, one at a time per request.
 */
final class BodyReader implements Runnable {
  /** The body was longer than allowed; the rest was never read. */
  static final class TooLarge extends RuntimeException {
    TooLarge() {
      super(null, null, false, false);
    }
  }

  private final Content.Source source;
  private final int maxBytes;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompletableFuture<byte[]> body = new CompletableFuture<>();

  private BodyReader(Content.Source source, int maxBytes) {
    this.source = source;
    this.maxBytes = maxBytes;
  }

  /** Starts reading {@code source}; the future completes with the body or why there is none. */
  static CompletableFuture<byte[]> read(Content.Source source, int maxBytes) {
    BodyReader reader = new BodyReader(source, maxBytes);
    reader.run();
    return reader.body;
  }

  @Override
  public void run() {
    while (!body.isDone()) {
      Content.Chunk chunk = source.read();
      if (chunk == null) {
        source.demand(this);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        body.completeExceptionally(chunk.getFailure());
        return;
      }
      try {
        take(chunk);
      } finally {
        chunk.release();
      }
    }
  }

  private void take(Content.Chunk chunk) {
    ByteBuffer buffer = chunk.getByteBuffer();
    if (bytes.size() + buffer.remaining() > maxBytes) {
      body.completeExceptionally(new TooLarge());
      return;
    }
    byte[] part = new byte[buffer.remaining()];
    buffer.get(part);
    bytes.writeBytes(part);
    if (chunk.isLast()) {
      body.complete(bytes.toByteArray());
    }
  }
}
