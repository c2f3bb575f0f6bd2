/**
 * Process settings as validated, immutable records: built once by {@code cli} from flags and {@code
 * SLUICE_*} environment variables, then handed to the composition root. Nothing here reads the
 * environment or files.
 */
package dev.sluice.config;
