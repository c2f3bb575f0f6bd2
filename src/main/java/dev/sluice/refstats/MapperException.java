package dev.sluice.refstats;

/**
 * A mapping file Sluice cannot serve as statsd_exporter would: its message is one line, {@code
 * file:line: what is wrong}, naming the key or value.
 */
public final class MapperException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  MapperException(String source, int line, String message) {
    super(source + ":" + line + ": " + message);
  }
}
