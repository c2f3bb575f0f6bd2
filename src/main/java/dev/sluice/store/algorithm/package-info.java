/**
 * The counting algorithms, one class each behind {@link
 * dev.sluice.store.algorithm.CountingAlgorithm}: key shape, the operation on the memory store (a
 * step on a {@link dev.sluice.store.algorithm.MemoryCounter}) and on Redis (commands queued on a
 * {@link dev.sluice.store.algorithm.RedisBatch}), and the remaining/reset arithmetic. The stores
 * provide only those primitives and never ask which algorithm a hit uses.
 */
package dev.sluice.store.algorithm;
