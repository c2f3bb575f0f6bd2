package dev.sluice.store;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What {@link CounterStore#charge} answers: the usages themselves when the store charged on the
 * calling thread ({@link Now}, the memory store), else the future of them ({@link Later}, a store
 * across a network). One result with two shapes instead of two store methods: a decorator passes
 * either on through {@link #map}, {@link #whenDone} or {@link #combine}, which every shape
 * implements, so a decorator cannot drop the answer made on the calling thread.
 */
public sealed interface Charged permits Charged.Now, Charged.Later {

  /**
   * Charged on the calling thread: the usages themselves, one per hit of the charge, in order. An
   * immutable list that is cheap for the usual answer of one usage: it holds that usage, with no
   * list object around it.
   */
  final class Now extends AbstractList<Usage> implements Charged, RandomAccess {
    private final Usage only; // the one usage, or null
    private final List<Usage> several; // every usage when not one, else null

    /** The answer of a charge of one hit. */
    public Now(Usage usage) {
      this.only = Objects.requireNonNull(usage, "usage");
      this.several = null;
    }

    /** The answer of a charge of any number of hits. */
    public Now(List<Usage> usages) {
      this.only = null;
      this.several = List.copyOf(usages);
    }

    @Override
    public Usage get(int i) {
      if (only == null) {
        return several.get(i);
      }
      Objects.checkIndex(i, 1);
      return only;
    }

    @Override
    public int size() {
      return only == null ? several.size() : 1;
    }

    /** The usages: this list itself. */
    public List<Usage> usages() {
      return this;
    }

    @Override
    public CompletableFuture<List<Usage>> future() {
      return CompletableFuture.completedFuture(this);
    }

    @Override
    public Charged map(Function<List<Usage>, List<Usage>> mapping) {
      return new Now(mapping.apply(this));
    }

    @Override
    public Charged whenDone(BiConsumer<List<Usage>, Throwable> done) {
      done.accept(this, null);
      return this;
    }
  }

  /**
   * Answered later, or failed.
   *
   * @param usages completes as {@link CounterStore#charge} says (threads, failures)
   */
  record Later(CompletableFuture<List<Usage>> usages) implements Charged {
    public Later {
      Objects.requireNonNull(usages, "usages");
    }

    @Override
    public CompletableFuture<List<Usage>> future() {
      return usages;
    }

    @Override
    public Charged map(Function<List<Usage>, List<Usage>> mapping) {
      return new Later(usages.thenApply(mapping));
    }

    /** At once, on the calling thread, when the future is already complete: no stage for it. */
    @Override
    public Charged whenDone(BiConsumer<List<Usage>, Throwable> done) {
      if (!usages.isDone()) {
        return new Later(usages.whenComplete(done));
      }
      if (usages.isCompletedExceptionally()) {
        done.accept(null, failureOf(usages));
      } else {
        done.accept(usages.join(), null);
      }
      return this;
    }

    private static Throwable failureOf(CompletableFuture<?> failed) {
      try {
        failed.join();
        throw new IllegalStateException("not completed exceptionally");
      } catch (CompletionException | CancellationException e) {
        return e;
      }
    }
  }

  /** A charge that failed before it reached the backend (an open breaker, a refused send). */
  static Charged failed(Throwable failure) {
    return new Later(CompletableFuture.failedFuture(failure));
  }

  /** This answer as a future: completed for {@link Now}. */
  CompletableFuture<List<Usage>> future();

  /**
   * The same answer with {@code mapping} applied to its usages: on this thread for {@link Now}, as
   * the future completes for {@link Later} (on the thread completing it).
   */
  Charged map(Function<List<Usage>, List<Usage>> mapping);

  /**
   * Runs {@code done} once the answer is known, with the usages or the failure (the other null): at
   * once for {@link Now} and for a {@link Later} already complete, else on the thread completing
   * it. Answers what the caller passes on: {@code done} runs before that completes.
   */
  Charged whenDone(BiConsumer<List<Usage>, Throwable> done);

  /**
   * Two answers as one, {@code merge} of both usages: {@link Now} when both are, else later (on the
   * thread completing the later of the two); fails when either fails.
   */
  static Charged combine(
      Charged first, Charged second, BiFunction<List<Usage>, List<Usage>, List<Usage>> merge) {
    if (first instanceof Now a && second instanceof Now b) {
      return new Now(merge.apply(a, b));
    }
    return new Later(first.future().thenCombine(second.future(), merge));
  }
}
