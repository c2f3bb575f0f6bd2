/**
 * The one settings tree: {@link dev.sluice.config.ServeConfig} and its immutable records (rules,
 * store with Redis and breaker, server, limiter, headers), each validated in its compact
 * constructor, so a tree that exists is one that starts. Built once by {@code cli} from flags and
 * {@code SLUICE_*} environment variables; each component receives its own sub-record. Secrets are
 * {@link dev.sluice.config.Secret}s, so every {@code toString} (and the startup log line) masks
 * them. Nothing here reads the environment or files.
 */
package dev.sluice.config;
