package dev.sluice.rules.load;

import java.nio.file.Path;

/**
 * One rule file as read from disk: the bytes that are both parsed and hashed, so the version always
 * describes exactly what was loaded.
 *
 * @param path where it was read, as problems name it (the loaded path joined with the file's
 *     relative path)
 * @param name the relative path with {@code /} separators for a file found in a directory, or the
 *     path as given for a single file; used in descriptor origins and in the version hash
 * @param content the raw bytes; not copied, never modified
 */
record RuleFile(Path path, String name, byte[] content) {}
