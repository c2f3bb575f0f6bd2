package dev.sluice.rules;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which wildcards of one key group can match a value, in file order, without testing them all: a
 * pattern can only match a value that starts with its literal prefix and ends with its literal
 * suffix. Patterns are filed by prefix ({@code w1-*}), else by suffix ({@code *.png}), else kept
 * for every value ({@code *}, {@code *x*}). A lookup lists the patterns filed under each of the
 * value's prefixes and suffixes of a filed length, so its cost follows the number of distinct
 * prefix and suffix lengths, not the number of patterns (100,000 wildcards were a linear scan on
 * every request that fell through to a key-only rule). The caller still tests each candidate.
 *
 * <p>Immutable; {@link #candidates} allocates only when the group holds more than {@value
 * #SCAN_ALL_UP_TO} wildcards, and then only for the value's prefixes and the merged list.
 */
final class WildcardIndex {
  /** Up to this many wildcards, testing each is cheaper than looking up their prefixes. */
  static final int SCAN_ALL_UP_TO = 8;

  private static final int[] NONE = new int[0];

  private final int[] all;
  private final boolean indexed;
  private final Map<String, int[]> byPrefix;
  private final int[] prefixLengths;
  private final Map<String, int[]> bySuffix;
  private final int[] suffixLengths;
  private final int[] anyValue;

  WildcardIndex(List<WildcardPattern> patterns) {
    all = new int[patterns.size()];
    Arrays.setAll(all, i -> i);
    indexed = patterns.size() > SCAN_ALL_UP_TO;
    Map<String, List<Integer>> prefixes = new HashMap<>();
    Map<String, List<Integer>> suffixes = new HashMap<>();
    List<Integer> rest = new ArrayList<>();
    for (int i = 0; indexed && i < patterns.size(); i++) {
      WildcardPattern pattern = patterns.get(i);
      if (!pattern.prefix().isEmpty()) {
        prefixes.computeIfAbsent(pattern.prefix(), p -> new ArrayList<>()).add(i);
      } else if (!pattern.suffix().isEmpty()) {
        suffixes.computeIfAbsent(pattern.suffix(), s -> new ArrayList<>()).add(i);
      } else {
        rest.add(i);
      }
    }
    byPrefix = toArrays(prefixes);
    prefixLengths = lengths(prefixes);
    bySuffix = toArrays(suffixes);
    suffixLengths = lengths(suffixes);
    anyValue = rest.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Every pattern's index, in file order: what an explanation walks, so it shows each one. */
  int[] all() {
    return all;
  }

  /**
   * The indexes, ascending (file order), of the patterns that may match {@code value}: a superset
   * of those that do. The array is shared; callers must not write to it.
   */
  int[] candidates(String value) {
    if (!indexed) {
      return all;
    }
    List<int[]> found = new ArrayList<>(4);
    if (anyValue.length > 0) {
      found.add(anyValue);
    }
    for (int length : prefixLengths) {
      if (length > value.length()) {
        break;
      }
      addIfPresent(byPrefix.get(value.substring(0, length)), found);
    }
    for (int length : suffixLengths) {
      if (length > value.length()) {
        break;
      }
      addIfPresent(bySuffix.get(value.substring(value.length() - length)), found);
    }
    return merged(found);
  }

  private static void addIfPresent(int[] indexes, List<int[]> found) {
    if (indexes != null) {
      found.add(indexes);
    }
  }

  private static int[] merged(List<int[]> found) {
    if (found.isEmpty()) {
      return NONE;
    }
    if (found.size() == 1) {
      return found.get(0);
    }
    int[] out = found.stream().flatMapToInt(Arrays::stream).toArray();
    Arrays.sort(out); // each pattern is filed once, so there are no duplicates
    return out;
  }

  private static Map<String, int[]> toArrays(Map<String, List<Integer>> filed) {
    Map<String, int[]> out = new HashMap<>(filed.size() * 2);
    filed.forEach((literal, indexes) -> out.put(literal, toArray(indexes)));
    return out;
  }

  private static int[] toArray(List<Integer> indexes) {
    return indexes.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int[] lengths(Map<String, List<Integer>> filed) {
    TreeSet<Integer> lengths = new TreeSet<>();
    filed.keySet().forEach(literal -> lengths.add(literal.length()));
    return toArray(new ArrayList<>(lengths));
  }
}
