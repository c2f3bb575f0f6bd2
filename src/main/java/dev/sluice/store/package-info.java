/**
 * The counting contract every store implements: {@link dev.sluice.store.CounterStore#charge} takes
 * all counted hits of one request at once ({@link dev.sluice.store.Charge}) and answers one {@link
 * dev.sluice.store.Usage} each, now or later ({@link dev.sluice.store.Charged}), so a Redis store
 * can make it one round trip and the memory store needs no future. Also what the stores share: the
 * counter key format, the window and token-bucket arithmetic, and {@link
 * dev.sluice.store.GuardedStore}, the circuit breaker around a store. The implementations live in
 * {@code store.memory} and {@code store.redis}.
 */
package dev.sluice.store;
