package dev.sluice.live;

import dev.sluice.rules.Entry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.StringJoiner;

/**
 * Renders a descriptor's entries for the live page: keys as they are, values as a salted SHA-256
 * prefix unless the rule allows showing them ({@code detailed_metric}). The salt is per process, so
 * a hash cannot be looked up in a table built elsewhere; the same value hashes the same while the
 * process runs, so an operator can still tell keys apart. Runs only when the page asks (about once
 * a second, ten keys), never on the request path.
 */
final class ValueHasher {
  private final byte[] salt;

  ValueHasher(byte[] salt) {
    this.salt = salt.clone();
  }

  String render(List<Entry> entries, boolean showValues) {
    StringJoiner text = new StringJoiner(",");
    for (Entry entry : entries) {
      text.add(entry.key() + "=" + (showValues ? entry.value() : "#" + hash(entry.value())));
    }
    return text.toString();
  }

  String hash(String value) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(salt);
      byte[] sum = digest.digest(value.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sum, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
