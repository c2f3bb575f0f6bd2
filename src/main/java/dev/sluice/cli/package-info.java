/**
 * The command line: {@code serve} and {@code check}, plus the measuring tools {@code bench} and
 * {@code bench-server} (their engines live in {@code bench}). Parses flags, each with a {@code
 * SLUICE_*} environment twin (the flag wins), into {@code config} records, and turns failures into
 * one-line errors and exit codes. The only package that reads the environment. {@code serve}'s
 * flags are grouped by concern into mixins ({@code RulesOptions}, {@code RedisOptions}, {@code
 * LimiterOptions}, {@code ServerOptions}, {@code AccessOptions}, ...), each building its part of
 * {@code ServeConfig}; {@code ServeCommand} only assembles them.
 */
package dev.sluice.cli;
