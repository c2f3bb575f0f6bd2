/**
 * Sluice's Prometheus metrics ({@code sluice_*}): one class with intention-revealing methods, given
 * its registry by the composition root (a fresh one per test). Labels are bounded: domains and
 * configured rule paths, never raw request values, except capped detailed-metric values. Depends on
 * no other Sluice package.
 */
package dev.sluice.metrics;
