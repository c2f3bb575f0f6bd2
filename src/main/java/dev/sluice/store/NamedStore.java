package dev.sluice.store;

/**
 * A store under another {@link #kind()}, so a second store of one kind (the per-second Redis) has
 * metric labels, a breaker and health lines of its own. Forwards everything else; closing it closes
 * the store it names.
 */
public final class NamedStore extends ForwardingStore {
  private final String kind;

  public NamedStore(CounterStore delegate, String kind) {
    super(delegate);
    this.kind = kind;
  }

  @Override
  public Charged charge(Charge charge) {
    return delegate().charge(charge);
  }

  @Override
  public String kind() {
    return kind;
  }
}
