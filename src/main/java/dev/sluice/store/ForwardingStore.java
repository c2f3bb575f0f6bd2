package dev.sluice.store;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A store wrapped around one other store: the operator calls ({@link #inspect}, {@link #reset},
 * {@link #ping}), {@link #kind} and {@link #close} go to it unchanged unless a subclass says
 * otherwise. {@link #charge} is left abstract on purpose: it is the request path, and each
 * decorator must say what it does with a charge, passing a {@link Charged.Now} on as {@code Now}
 * (the fast case a decorator used to drop silently when it rewrote every method by hand).
 *
 * <p>Thread-safety is the subclass's and the delegate's: this class holds nothing but the delegate.
 */
public abstract class ForwardingStore implements CounterStore {
  private final CounterStore delegate;

  protected ForwardingStore(CounterStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The store this one wraps. */
  protected final CounterStore delegate() {
    return delegate;
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
    return delegate.kind();
  }

  /** Closes the wrapped store: a decorator owns what it wraps. */
  @Override
  public void close() {
    delegate.close();
  }
}
