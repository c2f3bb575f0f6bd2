package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.io.Content;
import org.junit.jupiter.api.Test;

class BodyReaderTest {
  @Test
  void read_chunksWithinTheLimit_givesTheWholeBody() throws Exception {
    Content.Source source = Content.Source.from(bytes("hello, "), bytes("world"));
    assertThat(new String(BodyReader.read(source, 12).get(), StandardCharsets.UTF_8))
        .isEqualTo("hello, world");
  }

  @Test
  void read_overTheLimit_failsTooLarge() {
    Content.Source source = Content.Source.from(bytes("hello, "), bytes("world"));
    assertThatThrownBy(() -> BodyReader.read(source, 11).get())
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(BodyReader.TooLarge.class);
  }

  private static ByteBuffer bytes(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
  }
}
