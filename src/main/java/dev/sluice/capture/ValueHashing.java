package dev.sluice.capture;

import dev.sluice.rules.Entry;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@code --capture-hash-values}: each value written as {@code #} and the first 16 bytes (32 hex
 * digits) of HMAC-SHA256 over it, keys left in clear. Keyed, because descriptor values are often
 * low-entropy (IPv4 addresses, user ids): a plain SHA-256 of every IPv4 address is a few minutes of
 * work, so an unkeyed hash would only look private. The key is random per process and never written
 * anywhere: the same value hashes the same throughout one process's capture (its files rotated
 * included), so replay still counts per value, but a capture cannot be reversed or joined with
 * another process's. Not thread-safe: the capture's one writer thread owns it.
 */
final class ValueHashing {
  private static final int HASH_BYTES = 16;
  private final Mac mac;

  ValueHashing(byte[] key) {
    try {
      mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JVM has HmacSHA256", e);
    }
  }

  List<Entry> hash(List<Entry> entries) {
    List<Entry> hashed = new ArrayList<>(entries.size());
    for (Entry entry : entries) {
      hashed.add(new Entry(entry.key(), hash(entry.value())));
    }
    return hashed;
  }

  String hash(String value) {
    byte[] sum = mac.doFinal(value.getBytes(StandardCharsets.UTF_8));
    return "#" + HexFormat.of().formatHex(sum, 0, HASH_BYTES);
  }
}
