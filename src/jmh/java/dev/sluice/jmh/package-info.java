/**
 * JMH microbenchmarks of the in-process decision path: rule matching ({@code RuleSet.match}) and
 * one decision on the memory store ({@code RateLimiter.decide}). Built only by the Maven profile
 * {@code bench}; run from the repository root (the demo rules are read from {@code config/rules}).
 */
package dev.sluice.jmh;
