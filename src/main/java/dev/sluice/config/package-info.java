/**
 * The one settings tree: {@link dev.sluice.config.ServeConfig} and its immutable records (rules,
 * store with Redis and breaker, server, limiter, headers), each validated in its compact
 * constructor, so a tree that exists is one that starts. Built once by {@code cli} from flags and
 * {@code SLUICE_*} environment variables; each component receives its own sub-record. Secrets are
 * {@link dev.sluice.config.Secret}s, so every {@code toString} (and the startup log line) masks
 * them. Nothing here reads the environment or files.
 *
 * <p>Every setting is declared once, as a {@link dev.sluice.config.Setting} in one of the {@code
 * *Settings} classes (flag, env twin, default, parse and check, one line of help); {@code cli}
 * derives the option, the twin's lookup and the reference translation's targets from it, and a test
 * holds {@code docs/settings.md} to it. To add one: declare it, read it where it is used through
 * {@link dev.sluice.config.SettingValues} (or a record built from it), test it.
 */
package dev.sluice.config;
