package dev.sluice.config;

/**
 * The largest request Sluice accepts; anything larger is answered INVALID_ARGUMENT with a message
 * naming the limit. Bytes are UTF-8 bytes. The defaults are far above what any Envoy rate-limit
 * action produces (one descriptor per {@code rate_limits} entry, one entry per action), and low
 * enough that no single request can make a counter key or a log line of megabytes.
 *
 * @param maxDescriptors descriptors per request
 * @param maxEntries entries per descriptor
 * @param maxDomainBytes bytes of the domain
 * @param maxKeyBytes bytes of one entry's key
 * @param maxValueBytes bytes of one entry's value
 */
public record RequestLimits(
    int maxDescriptors, int maxEntries, int maxDomainBytes, int maxKeyBytes, int maxValueBytes) {
  /**
   * The largest {@code hits_addend}, request-level or per descriptor: the request-level field is a
   * uint32, and the same bound on the per-descriptor uint64 keeps every counter far from the top of
   * a 64-bit integer (a 2^63-1 addend used to overflow Redis's INCRBY for everyone).
   */
  public static final long MAX_HITS_ADDEND = 0xFFFF_FFFFL;

  public RequestLimits {
    positive("max descriptors per request", maxDescriptors);
    positive("max entries per descriptor", maxEntries);
    positive("max domain bytes", maxDomainBytes);
    positive("max key bytes", maxKeyBytes);
    positive("max value bytes", maxValueBytes);
  }

  public static RequestLimits defaults() {
    return from(SettingValues.defaults());
  }

  private static void positive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1: " + value);
    }
  }

  /** From the declared settings. */
  public static RequestLimits from(SettingValues values) {
    return new RequestLimits(
        values.get(CapacitySettings.MAX_DESCRIPTORS),
        values.get(CapacitySettings.MAX_DESCRIPTOR_ENTRIES),
        values.get(CapacitySettings.MAX_DOMAIN_BYTES),
        values.get(CapacitySettings.MAX_KEY_BYTES),
        values.get(CapacitySettings.MAX_VALUE_BYTES));
  }
}
