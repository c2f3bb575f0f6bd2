/**
 * The looser consistency modes a limit may choose ({@code rate_limit.consistency}): {@code synced}
 * ({@link dev.sluice.consistency.SyncedCounters}: local counting, deltas pushed every sync
 * interval) and {@code split} ({@link dev.sluice.consistency.SplitCounters}: each live instance
 * enforces its share alone). {@link dev.sluice.consistency.ConsistencyRouter} is the store the
 * limiter calls and sends each hit to its mode, so the limiter does not know the modes exist. The
 * shared store is reached only through {@link dev.sluice.store.CounterSync}.
 */
package dev.sluice.consistency;
