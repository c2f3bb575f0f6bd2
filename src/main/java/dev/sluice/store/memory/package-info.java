/**
 * The embedded store: both algorithms in this process's memory, for a single instance without Redis
 * and as the reference the Redis scripts are tested against. Counters expire with their window (or
 * when a bucket would be full again), so memory is bounded by the active keys.
 */
package dev.sluice.store.memory;
