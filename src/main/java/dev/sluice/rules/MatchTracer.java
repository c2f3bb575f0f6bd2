package dev.sluice.rules;

/**
 * Told about each candidate the matcher tries, in the order it tries them, so an operator can see
 * why a descriptor reached its rule ({@code sluice explain}). The request path uses {@link #NONE}
 * and pays nothing: the matcher builds no step unless {@link #tracing()} says so.
 */
public interface MatchTracer {
  /** Traces nothing. */
  MatchTracer NONE =
      new MatchTracer() {
        @Override
        public boolean tracing() {
          return false;
        }

        @Override
        public void step(MatchStep step) {}
      };

  /** False only for {@link #NONE}: lets the matcher skip building steps on the request path. */
  default boolean tracing() {
    return true;
  }

  void step(MatchStep step);
}
