package dev.sluice.consistency;

import dev.sluice.store.CounterSync;
import dev.sluice.store.DatedHit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import dev.sluice.store.memory.InMemoryCounterStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The real memory store as the shared store, which can be switched off like a Redis that went away
 * and which remembers each push it answered or refused, for tests about what was pushed when.
 */
final class SharedStore implements CounterSync {
  final InMemoryCounterStore store;
  final List<List<DatedHit>> pushes = new CopyOnWriteArrayList<>();
  volatile boolean up = true;

  SharedStore(InMemoryCounterStore store) {
    this.store = store;
  }

  @Override
  public CompletableFuture<List<Usage>> addDated(List<DatedHit> hits) {
    pushes.add(List.copyOf(hits));
    return up ? store.addDated(hits) : CompletableFuture.failedFuture(down());
  }

  @Override
  public CompletableFuture<Long> heartbeat(String instance, Duration ttl) {
    return up ? store.heartbeat(instance, ttl) : CompletableFuture.failedFuture(down());
  }

  private static StoreException down() {
    return new StoreException("shared store down");
  }
}
