package dev.sluice.explain;

import dev.sluice.store.CounterState;
import dev.sluice.store.Hit;
import java.util.List;
import java.util.Objects;

/** What the rule a descriptor reached does with it. */
public sealed interface Effect
    permits Effect.UnknownDomain,
        Effect.NoMatch,
        Effect.NoRateLimit,
        Effect.Replaced,
        Effect.Unlimited,
        Effect.Counted {

  /** No rule file declares the domain: OK, nothing counted. */
  record UnknownDomain() implements Effect {}

  /** No branch of the tree takes all the entries: OK, nothing counted. */
  record NoMatch() implements Effect {}

  /** The descriptor reached has no rate_limit (an exempted value): OK, nothing counted. */
  record NoRateLimit() implements Effect {}

  /**
   * The rule reached is named in the {@code replaces} of another descriptor's rule in the same
   * request: dropped, OK, nothing counted.
   *
   * @param by the ids ({@code domain.path}) of the rules that replace it
   */
  record Replaced(List<String> by) implements Effect {
    public Replaced {
      by = List.copyOf(by);
    }
  }

  /** {@code unlimited: true}: OK with remaining 4294967295, never counted. */
  record Unlimited() implements Effect {}

  /**
   * Counted against {@code hit.limit()} under {@code hit.key()}.
   *
   * @param override the limit is the client's override (the rules were not consulted)
   * @param counter the counter as the store holds it now, read without consuming
   */
  record Counted(
      Hit hit, boolean override, boolean shadowMode, boolean quotaMode, CounterState counter)
      implements Effect {
    public Counted {
      Objects.requireNonNull(hit, "hit");
      Objects.requireNonNull(counter, "counter");
    }

    /** Whether the store would find this request's hits over the limit if it came now. */
    public boolean nextOverLimit() {
      return hit.hits() > counter.usage().remaining();
    }
  }
}
