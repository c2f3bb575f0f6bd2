/**
 * The counting contract every store implements: {@link dev.sluice.store.CounterStore#acquire} takes
 * all counted hits of one request at once and answers one {@link dev.sluice.store.Usage} each, so a
 * Redis store can make it one round trip. Also the counter key format, which is the same for every
 * store. The implementations live in {@code store.memory} and {@code store.redis}.
 */
package dev.sluice.store;
