/**
 * {@code sluice explain}, {@code POST /explain} and the admin Explain rpc: why each descriptor of a
 * request reached its rule (every candidate tried, from the real matcher's own walk), what the rule
 * does with it, and its counter in the store, read without consuming. Knows no transport: the CLI
 * and the admin API render the same {@link dev.sluice.explain.Explanation}.
 */
package dev.sluice.explain;
