package dev.sluice.metrics;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The rule labels of {@code detailed_metric} series, which show request values and so must be
 * bounded whatever callers send: at most {@link #MAX_LABEL_BYTES} UTF-8 bytes per label, {@code
 * perRule} series per rule and {@code total} in all, then {@code <rule>._other}.
 *
 * <p>A value path longer than {@link #MAX_LABEL_BYTES} is shown as its first {@link #PREFIX_BYTES}
 * bytes, {@code ...#} and 16 hex digits of its SHA-256 ({@code client_aaaa...#3f2a9c0d1e2b4a5c}).
 * The hash is not salted, so a value has the same label on every replica and after a restart, and
 * series from several replicas add up. The whole value behind a cut label is kept for {@link
 * #lookup} (the admin's {@code /counters/label}) while the kept values total at most {@code
 * keptChars} characters; beyond, the label still counts but its value is not kept.
 *
 * <p>Thread-safe; the bounds are rough under races (a few labels more), which is all they need.
 */
final class DetailedLabels {
  static final int MAX_LABEL_BYTES = 128;
  static final int PREFIX_BYTES = 96;
  private static final String CUT_MARK = "...#";
  private static final int HASH_HEX_DIGITS = 16;
  private static final String OTHER = "_other";

  private final int perRule;
  private final int total;
  private final long keptChars;
  // "<domain>\0<rule>" -> the labels admitted for that rule
  private final Map<String, Set<String>> byRule = new ConcurrentHashMap<>();
  // "<domain>\0<label>" -> the rule and whole value of a cut label
  private final Map<String, DetailedLabel> cut = new ConcurrentHashMap<>();
  private final AtomicInteger admitted = new AtomicInteger();
  private final AtomicLong kept = new AtomicLong();

  DetailedLabels(int perRule, int total, long keptChars) {
    this.perRule = perRule;
    this.total = total;
    this.keptChars = keptChars;
  }

  /** The label of {@code path}'s series under {@code rule}: itself, cut, or the rule's other. */
  String admit(String domain, String rule, String path) {
    String label = labelOf(path);
    String ruleKey = domain + '\0' + rule;
    Set<String> labels = byRule.get(ruleKey);
    if (labels == null) {
      labels = byRule.computeIfAbsent(ruleKey, k -> ConcurrentHashMap.newKeySet());
    }
    if (labels.contains(label)) {
      return label;
    }
    if (labels.size() >= perRule || admitted.get() >= total) {
      return rule + "." + OTHER;
    }
    if (labels.add(label)) {
      admitted.incrementAndGet();
      if (!label.equals(path)) {
        keep(domain, rule, label, path);
      }
    }
    return label;
  }

  private void keep(String domain, String rule, String label, String path) {
    boolean room = kept.addAndGet(path.length()) <= keptChars;
    if (!room) {
      kept.addAndGet(-path.length());
    }
    cut.put(
        domain + '\0' + label,
        new DetailedLabel(rule, room ? Optional.of(path) : Optional.empty()));
  }

  /** The rule and value behind {@code label}, a rule label {@code /metrics} shows in the domain. */
  Optional<DetailedLabel> lookup(String domain, String label) {
    DetailedLabel found = cut.get(domain + '\0' + label);
    if (found != null) {
      return Optional.of(found);
    }
    String prefix = domain + '\0';
    return byRule.entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix) && e.getValue().contains(label))
        .findFirst()
        .map(e -> new DetailedLabel(e.getKey().substring(prefix.length()), Optional.of(label)));
  }

  /** Forgets the labels of every rule not in {@code served} (domain to its rules' paths). */
  void retain(Map<String, Set<String>> served) {
    byRule
        .entrySet()
        .removeIf(
            e -> {
              boolean gone = !served(served, e.getKey());
              if (gone) {
                admitted.addAndGet(-e.getValue().size());
              }
              return gone;
            });
    cut.entrySet()
        .removeIf(
            e -> {
              String domain = e.getKey().substring(0, e.getKey().indexOf('\0'));
              boolean gone = !served(served, domain + '\0' + e.getValue().rule());
              if (gone) {
                kept.addAndGet(-e.getValue().value().map(String::length).orElse(0));
              }
              return gone;
            });
  }

  private static boolean served(Map<String, Set<String>> served, String ruleKey) {
    int split = ruleKey.indexOf('\0');
    return served
        .getOrDefault(ruleKey.substring(0, split), Set.of())
        .contains(ruleKey.substring(split + 1));
  }

  /** {@code path} itself when short and not itself shaped like a cut label; else its cut form. */
  static String labelOf(String path) {
    if (path.length() <= MAX_LABEL_BYTES / 3 && !looksCut(path)) {
      return path; // even at 3 bytes a character it fits: no need to count
    }
    if (utf8Length(path) <= MAX_LABEL_BYTES && !looksCut(path)) {
      return path;
    }
    return prefix(path) + CUT_MARK + sha256Hex(path);
  }

  /** Whether {@code text} ends like a cut label, so no value can pass for another's cut form. */
  private static boolean looksCut(String text) {
    int mark = text.length() - HASH_HEX_DIGITS - CUT_MARK.length();
    if (mark < 0 || !text.startsWith(CUT_MARK, mark)) {
      return false;
    }
    return text.chars().skip(mark + CUT_MARK.length()).allMatch(c -> Character.digit(c, 16) >= 0);
  }

  private static int utf8Length(String text) {
    int bytes = 0;
    for (int i = 0; i < text.length() && bytes <= MAX_LABEL_BYTES; ) {
      int size = bytesOf(text, i);
      bytes += size;
      i += size == 4 ? 2 : 1;
    }
    return bytes;
  }

  /** The longest start of {@code text} of at most {@link #PREFIX_BYTES}, whole code points. */
  private static String prefix(String text) {
    int bytes = 0;
    int end = 0;
    while (end < text.length()) {
      int size = bytesOf(text, end);
      if (bytes + size > PREFIX_BYTES) {
        break;
      }
      bytes += size;
      end += size == 4 ? 2 : 1;
    }
    return text.substring(0, end);
  }

  /** UTF-8 bytes of the code point at {@code index} (an unpaired surrogate is written as 3). */
  private static int bytesOf(String text, int index) {
    char c = text.charAt(index);
    if (c < 0x80) {
      return 1;
    }
    if (c < 0x800) {
      return 2;
    }
    boolean pair =
        Character.isHighSurrogate(c)
            && index + 1 < text.length()
            && Character.isLowSurrogate(text.charAt(index + 1));
    return pair ? 4 : 3;
  }

  private static String sha256Hex(String text) {
    try {
      byte[] sum =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sum, 0, HASH_HEX_DIGITS / 2);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
