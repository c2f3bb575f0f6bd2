package dev.sluice.store.algorithm;

import dev.sluice.rules.Algorithm;
import dev.sluice.store.CounterState;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import java.time.Instant;

/**
 * How one algorithm counts: its key shape, its operation on each store, and its remaining/reset
 * arithmetic. One class per algorithm; the stores only hand it their primitives ({@link
 * MemoryCounter} values in a concurrent map, a {@link RedisBatch} of pipelined commands), so adding
 * an algorithm is one new class here, its Lua script, and one case in {@link #of}. Which fields a
 * limit may set is the rule model's part ({@link Algorithm#takesBurst()}).
 *
 * <p>Implementations are stateless and thread-safe.
 */
public interface CountingAlgorithm {

  /** The algorithm that counts limits of {@code algorithm}. */
  static CountingAlgorithm of(Algorithm algorithm) {
    return switch (algorithm) {
      case FIXED_WINDOW -> FixedWindow.INSTANCE;
      case TOKEN_BUCKET -> TokenBucket.INSTANCE;
      case SLIDING_WINDOW -> SlidingWindow.INSTANCE;
    };
  }

  /** The first part of a {@link dev.sluice.store.CounterKey}, e.g. {@code fw}. */
  String keyTag();

  /**
   * Whether refused hits are still charged to the counter (a fixed window counts every hit, a
   * bucket takes nothing from a refused request). Splits over-limit hits for metrics.
   */
  boolean chargesRefusedHits();

  /**
   * Applies {@code hit} to the counter's current value, inside the memory store's per-key atomic
   * section: must not block or touch other keys.
   *
   * @param current the live value of the counter, or null when there is none (or it expired)
   * @param nowMicros the store's clock, in microseconds since the epoch ({@link #epochMicros}): a
   *     long, not an {@link Instant} handed down the store, which kept the JIT from eliminating it
   */
  MemoryCounter.Step takeInMemory(MemoryCounter current, Hit hit, long nowMicros);

  /**
   * Charges {@code hit} to the stored counter {@code current} in place, when this algorithm's
   * counter is mutable and the hit is charged (it fits, or any hit for {@link
   * #chargesRefusedHits}): the usage {@link #takeInMemory} would report, without a new counter per
   * hit (issue 16). Otherwise null, and {@code current} is unchanged: the caller takes the step and
   * stores its next value. The caller holds the stripe lock that guards {@code current}, and every
   * other read of a stored counter holds it too; {@link #takeInMemory} never changes {@code
   * current}, so tentative steps (a request deciding before it charges) stay side-effect free.
   */
  default Usage chargeInPlace(MemoryCounter current, Hit hit, long nowMicros) {
    return null;
  }

  /**
   * The state {@code current} (null when absent or expired) shows at {@code nowMicros}, changing
   * nothing.
   */
  CounterState readInMemory(MemoryCounter current, Hit hit, long nowMicros);

  /** {@code instant} in whole microseconds since the epoch, as the memory store counts time. */
  static long epochMicros(Instant instant) {
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1000;
  }

  /** The epoch millisecond holding {@code epochMicros}: what {@link Instant#toEpochMilli} gives. */
  static long epochMillis(long epochMicros) {
    return Math.floorDiv(epochMicros, 1000);
  }

  /**
   * Queues the commands that apply {@code hit} on Redis, atomically for its counter.
   *
   * @param nowMillis the service clock, for algorithms whose key depends on the time
   * @return the usage, readable once the batch has been sent and its replies read
   */
  RedisBatch.Reply<Usage> takeOnRedis(RedisBatch redis, Hit hit, long nowMillis);

  /** Queues a read of the counter, and its deletion when {@code delete}, for operators. */
  RedisBatch.Reply<CounterState> readOnRedis(
      RedisBatch redis, Hit hit, long nowMillis, boolean delete);
}
