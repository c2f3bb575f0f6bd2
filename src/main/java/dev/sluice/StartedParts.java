package dev.sluice;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * The long-lived parts the root has started, in start order, so that they close in reverse: a part
 * closes only after every part started after it, which may use it. A part that fails to close is
 * logged and the rest still close.
 *
 * <p>Not thread-safe: the root adds from the thread that starts it and closes under its own lock.
 */
final class StartedParts {
  private record Part(String name, AutoCloseable closeable) {}

  private final Logger log;
  private final List<Part> parts = new ArrayList<>();

  /**
   * @param log where a part that fails to close is reported: the root's, as it always was
   */
  StartedParts(Logger log) {
    this.log = log;
  }

  /**
   * Adds a started part, to be closed before every part added earlier.
   *
   * @param name what the part is, for {@link #names}
   * @return {@code part}
   */
  <T extends AutoCloseable> T add(String name, T part) {
    parts.add(new Part(name, part));
    return part;
  }

  /** The parts' names in start order; the reverse is the close order. */
  List<String> names() {
    return parts.stream().map(Part::name).toList();
  }

  /** Closes every part, the last added first, and forgets them: a second call closes nothing. */
  void closeInReverse() {
    for (int i = parts.size() - 1; i >= 0; i--) {
      AutoCloseable part = parts.get(i).closeable();
      try {
        part.close();
      } catch (Exception e) {
        log.warn("closing {} failed: {}", part.getClass().getSimpleName(), e.toString());
      }
    }
    parts.clear();
  }
}
