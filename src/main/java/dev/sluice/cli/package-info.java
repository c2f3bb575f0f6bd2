/**
 * The command line: {@code serve} and {@code check}, plus the measuring tools {@code bench} and
 * {@code bench-server} (their engines live in {@code bench}). Parses flags, each with a {@code
 * SLUICE_*} environment twin (the flag wins), into {@code config} records, and turns failures into
 * one-line errors and exit codes. The only package that reads the environment. {@code serve}'s
 * options are derived from the {@code config.*Settings} declarations by {@code SettingOptions};
 * {@code ServeCommand} hands the parsed values to {@code ServeConfig.from}, which builds each
 * record from them.
 */
package dev.sluice.cli;
