/**
 * Where Sluice's threads come from: {@link dev.sluice.threads.DaemonThreadFactory}, the one thread
 * factory, and {@link dev.sluice.threads.Scheduler}, the one timer service, created in the
 * composition root and passed to every component with periodic work (memory sweep, breaker probe,
 * rule reload poll, health updates). Components never create or start threads of their own; tests
 * pass the shared {@code FakeClock}, which is also a scheduler, and drive timers by advancing it.
 */
package dev.sluice.threads;
