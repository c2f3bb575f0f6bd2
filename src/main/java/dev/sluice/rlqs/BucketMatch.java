package dev.sluice.rlqs;

import dev.sluice.rules.Entry;
import dev.sluice.rules.Match;
import dev.sluice.rules.RuleSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How a {@code BucketId} map reaches a rule. A map has no order, and a descriptor is a path, so the
 * map's entries are tried as descriptors in every order of its keys, in lexicographic order of
 * those orders (the keys sorted, then the next permutation, ...), each walked through the domain's
 * tree exactly as an RLS descriptor is (exact value, wildcards, key-only, with backtracking); the
 * first order whose walk takes every entry wins. {@code {name: api, user: u1}} so reaches {@code
 * name=api -> user} as well as a tree written {@code user -> name=api}, and an entry the tree has
 * no level for (Envoy's {@code bucket_id_builder} often adds a static {@code name}) leaves the
 * bucket unmatched, as an extra entry does in RLS.
 *
 * <p>Orders are tried only for maps of at most {@link #MAX_ORDERED_KEYS} keys (720 walks, once per
 * subscription and per reload); a larger map is walked in sorted key order only. Pure.
 */
final class BucketMatch {
  /** Keys whose every order is tried. */
  static final int MAX_ORDERED_KEYS = 6;

  private BucketMatch() {}

  /** The rule the bucket reaches, or empty (unknown domain, or no order matches). */
  static Optional<Match> find(RuleSet rules, String domain, Map<String, String> bucket) {
    if (!rules.hasDomain(domain) || bucket.isEmpty()) {
      return Optional.empty();
    }
    List<String> keys = new ArrayList<>(new TreeMap<>(bucket).keySet());
    do {
      List<Entry> entries = new ArrayList<>(keys.size());
      for (String key : keys) {
        entries.add(new Entry(key, bucket.get(key)));
      }
      Optional<Match> match = rules.match(domain, entries);
      if (match.isPresent()) {
        return match;
      }
    } while (keys.size() <= MAX_ORDERED_KEYS && nextPermutation(keys));
    return Optional.empty();
  }

  /** Rearranges {@code keys} into the next order, lexicographically; false after the last. */
  private static boolean nextPermutation(List<String> keys) {
    int i = keys.size() - 2;
    while (i >= 0 && keys.get(i).compareTo(keys.get(i + 1)) >= 0) {
      i--;
    }
    if (i < 0) {
      return false;
    }
    int j = keys.size() - 1;
    while (keys.get(j).compareTo(keys.get(i)) <= 0) {
      j--;
    }
    java.util.Collections.swap(keys, i, j);
    java.util.Collections.reverse(keys.subList(i + 1, keys.size()));
    return true;
  }
}
