/**
 * The rule model and descriptor matching: {@link dev.sluice.rules.RuleSet} is an immutable,
 * compiled tree per domain that maps a request descriptor (its ordered entries) to the {@link
 * dev.sluice.rules.Rule} that governs it. Pure values, no I/O: YAML parsing lives in {@code
 * rules.load}, counting lives in {@code store}. A {@code RuleSet} is built once per (re)load and
 * shared read-only by every request thread.
 */
package dev.sluice.rules;
