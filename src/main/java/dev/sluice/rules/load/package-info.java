/**
 * Reading rule files: {@link dev.sluice.rules.load.RuleLoader} turns a directory (or one file) of
 * envoyproxy/ratelimit-style YAML into a compiled {@link dev.sluice.rules.RuleSet}, or into the
 * complete list of {@code FILE:LINE: message} problems. Parsing uses SnakeYAML's node tree so every
 * problem has a line; validation is stricter than the reference's (unknown or misplaced fields,
 * extra documents and repeated fields are errors), while a descriptor's {@code metadata} is
 * accepted as any map and ignored. The matching model itself lives in {@code rules}; nothing here
 * matches requests or counts hits.
 */
package dev.sluice.rules.load;
