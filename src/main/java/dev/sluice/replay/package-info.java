/**
 * {@code sluice replay}: a captured request stream (JSON lines) run through the real {@link
 * dev.sluice.limiter.RateLimiter} on the memory store and a simulated clock, reporting per rule
 * what the rules would have done; with a second rule set, side by side. Deterministic: the same
 * input gives the same output.
 */
package dev.sluice.replay;
