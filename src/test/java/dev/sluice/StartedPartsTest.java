package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class StartedPartsTest {
  private final StartedParts parts =
      new StartedParts(LoggerFactory.getLogger(StartedPartsTest.class));
  private final List<String> closed = new ArrayList<>();

  private AutoCloseable closing(String name) {
    return () -> closed.add(name);
  }

  @Test
  void closeInReverse_threeParts_closesTheLastStartedFirst() {
    parts.add("a", closing("a"));
    parts.add("b", closing("b"));
    parts.add("c", closing("c"));

    parts.closeInReverse();

    assertThat(closed).containsExactly("c", "b", "a");
  }

  @Test
  void closeInReverse_aPartFails_theEarlierPartsStillClose() {
    parts.add("a", closing("a"));
    parts.add(
        "b",
        () -> {
          throw new IllegalStateException("b will not close");
        });
    parts.add("c", closing("c"));

    parts.closeInReverse();

    assertThat(closed).containsExactly("c", "a");
  }

  @Test
  void closeInReverse_calledTwice_closesEachPartOnce() {
    parts.add("a", closing("a"));

    parts.closeInReverse();
    parts.closeInReverse();

    assertThat(closed).containsExactly("a");
    assertThat(parts.names()).isEmpty();
  }

  @Test
  void names_inStartOrder() {
    parts.add("scheduler", closing("scheduler"));
    parts.add("grpc server", closing("grpc server"));

    assertThat(parts.names()).containsExactly("scheduler", "grpc server");
  }
}
