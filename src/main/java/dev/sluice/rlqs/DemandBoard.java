package dev.sluice.rlqs;

import java.time.Duration;
import java.util.Map;

/**
 * Where instances share their clients' demands, so each divides a rule's rate over every client of
 * every instance. Called on the scheduler only, once per report interval.
 */
interface DemandBoard extends AutoCloseable {

  /**
   * Publishes this instance's demands and reads the other instances' ones.
   *
   * @param local per group, per client of this instance, demand per second ({@link
   *     Double#POSITIVE_INFINITY} while unknown)
   * @param ttl how long what is published now counts, if not published again
   * @return per group of {@code local}, the other instances' clients' demands per second
   * @throws RuntimeException when the board cannot be reached; the caller keeps what it had
   */
  Map<String, double[]> exchange(Map<String, Map<String, Double>> local, Duration ttl);

  /** "memory" or "redis", for logs and metrics. */
  String kind();

  @Override
  void close();

  /** No other instance: the memory store, where each instance divides among its own clients. */
  DemandBoard ALONE =
      new DemandBoard() {
        @Override
        public Map<String, double[]> exchange(
            Map<String, Map<String, Double>> local, Duration ttl) {
          return Map.of();
        }

        @Override
        public String kind() {
          return "memory";
        }

        @Override
        public void close() {}
      };
}
