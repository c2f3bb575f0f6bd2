package dev.sluice.store;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the looser consistency modes ({@code dev.sluice.consistency}) need of the shared store
 * beside {@link CounterStore}: adding deltas to a window chosen by its time, and counting live
 * instances. Implemented by both stores; thread-safe. Futures complete as the answer of {@link
 * CounterStore#charge} does (Redis: on a lane thread) and fail with {@link StoreException} when the
 * backend cannot answer.
 */
public interface CounterSync {

  /**
   * Adds each fixed-window hit to the window holding its {@link DatedHit#atMillis}, never to the
   * window of now, and reports each window's count after the add, in order. Sent like one {@link
   * CounterStore#charge} (Redis: one pipeline per node), so the counter keys are exactly the ones
   * requests count. A hit of 0 only reads.
   */
  CompletableFuture<List<Usage>> addDated(List<DatedHit> hits);

  /**
   * Marks {@code instance} live for {@code ttl} and counts the instances whose mark has not
   * expired, this one included.
   */
  CompletableFuture<Long> heartbeat(String instance, Duration ttl);
}
