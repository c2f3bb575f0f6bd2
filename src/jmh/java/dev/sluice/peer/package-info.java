/**
 * Peers Sluice is compared with, run in-process by {@code bench/compare.sh}: Bucket4j's
 * Redis-backed bucket. Built only by the Maven profile {@code bench}, so no peer library reaches
 * Sluice's jar.
 */
package dev.sluice.peer;
