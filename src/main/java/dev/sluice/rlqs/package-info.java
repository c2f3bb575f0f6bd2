/**
 * Envoy's Rate Limit Quota Service (RLQS): the bidirectional {@code StreamRateLimitQuotas} stream,
 * bucket maps matched against the same rule files as RLS, and a max-min fair division of each
 * rule's limit among the Envoys that report demand for it (shared between instances through Redis
 * when the store is Redis). What it does not hold: counters; an Envoy enforces its assignment
 * itself, so no request reaches this package.
 */
package dev.sluice.rlqs;
