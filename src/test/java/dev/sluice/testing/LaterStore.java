package dev.sluice.testing;

import dev.sluice.store.Charge;
import dev.sluice.store.Charged;
import dev.sluice.store.CounterStore;
import dev.sluice.store.ForwardingStore;
import dev.sluice.store.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A real store answered as a store across a network answers: every {@link #charge} is charged on
 * the delegate at once, but answered {@link Charged.Later}, with a future that completes only when
 * the test calls {@link #answerAll} (on the test's thread, as a Redis lane would on its own). For
 * tests of what a wrapper does with an answer that comes later. Thread-safe.
 */
public final class LaterStore extends ForwardingStore {
  private final List<Runnable> waiting = new ArrayList<>(); // guarded by this

  public LaterStore(CounterStore delegate) {
    super(delegate);
  }

  @Override
  public Charged charge(Charge charge) {
    CompletableFuture<List<Usage>> answered = delegate().charge(charge).future();
    CompletableFuture<List<Usage>> later = new CompletableFuture<>();
    synchronized (this) {
      waiting.add(
          () ->
              answered.whenComplete(
                  (usages, failure) -> {
                    if (failure != null) {
                      later.completeExceptionally(failure);
                    } else {
                      later.complete(usages);
                    }
                  }));
    }
    return new Charged.Later(later);
  }

  /** Completes every answer held so far, in the order they were asked. */
  public void answerAll() {
    List<Runnable> now;
    synchronized (this) {
      now = List.copyOf(waiting);
      waiting.clear();
    }
    now.forEach(Runnable::run);
  }
}
