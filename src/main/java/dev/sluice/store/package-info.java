/**
 * The counting contract every store implements: {@link dev.sluice.store.CounterStore#acquire} takes
 * all counted hits of one request at once and answers one {@link dev.sluice.store.Usage} each, so a
 * Redis store can make it one round trip. Also what the stores share: the counter key format, the
 * window and token-bucket arithmetic, and {@link dev.sluice.store.GuardedStore}, the circuit
 * breaker around a store. The implementations live in {@code store.memory} and {@code store.redis}.
 */
package dev.sluice.store;
