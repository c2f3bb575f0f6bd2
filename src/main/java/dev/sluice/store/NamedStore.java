package dev.sluice.store;

import java.util.concurrent.CompletableFuture;

/**
 * A store under another {@link #kind()}, so a second store of one kind (the per-second Redis) has
 * metric labels, a breaker and health lines of its own. Forwards everything else; closing it closes
 * the store it names.
 */
public final class NamedStore implements CounterStore {
  private final CounterStore delegate;
  private final String kind;

  public NamedStore(CounterStore delegate, String kind) {
    this.delegate = delegate;
    this.kind = kind;
  }

  @Override
  public Charged charge(Charge charge) {
    return delegate.charge(charge);
  }

  @Override
  public CompletableFuture<CounterState> inspect(Hit hit) {
    return delegate.inspect(hit);
  }

  @Override
  public CompletableFuture<CounterState> reset(Hit hit) {
    return delegate.reset(hit);
  }

  @Override
  public void ping() {
    delegate.ping();
  }

  @Override
  public String kind() {
    return kind;
  }

  @Override
  public void close() {
    delegate.close();
  }
}
