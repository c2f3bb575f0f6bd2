package dev.sluice.bench;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.sluice.rules.Entry;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * The shape of every request the load generator sends: one domain, {@code descriptorsPerRequest}
 * descriptors each holding {@code entries} in order, with a key value substituted in.
 *
 * <p>The key goes wherever an entry value says {@value #KEY}; when no value does, it is appended to
 * the last entry's value ({@code user=u-} becomes {@code user=u-42}). With more than one descriptor
 * per request, descriptor {@code i} gets the key {@code <key>.<i>}, so every descriptor is its own
 * counter. Immutable and thread-safe.
 *
 * @param hitsAddend the request's {@code hits_addend}; 0 leaves it unset (the server counts 1)
 */
public record RequestTemplate(
    String domain, List<Entry> entries, int descriptorsPerRequest, long hitsAddend) {
  /** The placeholder replaced by the key value. */
  public static final String KEY = "{key}";

  private static final long MAX_UINT32 = 0xFFFF_FFFFL;

  public RequestTemplate {
    Objects.requireNonNull(domain, "domain");
    if (domain.isEmpty()) {
      throw new IllegalArgumentException("domain must not be empty");
    }
    entries = List.copyOf(entries);
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("at least one descriptor entry is needed");
    }
    if (descriptorsPerRequest < 1) {
      throw new IllegalArgumentException(
          "descriptors per request must be >= 1: " + descriptorsPerRequest);
    }
    if (hitsAddend < 0 || hitsAddend > MAX_UINT32) {
      throw new IllegalArgumentException("hits addend must be 0..4294967295: " + hitsAddend);
    }
  }

  /** The request for one key value. */
  public RateLimitRequest build(String key) {
    RateLimitRequest.Builder request = RateLimitRequest.newBuilder().setDomain(domain);
    if (hitsAddend > 0) {
      request.setHitsAddend((int) hitsAddend); // uint32 on the wire
    }
    for (int d = 0; d < descriptorsPerRequest; d++) {
      String[] values = values(descriptorKey(key, d));
      RateLimitDescriptor.Builder descriptor = RateLimitDescriptor.newBuilder();
      for (int i = 0; i < values.length; i++) {
        descriptor.addEntries(
            RateLimitDescriptor.Entry.newBuilder()
                .setKey(entries.get(i).key())
                .setValue(values[i]));
      }
      request.addDescriptors(descriptor);
    }
    return request.build();
  }

  /**
   * {@code build(key).toByteArray()} written directly: the bytes protobuf would write, without the
   * message objects in between, for a load generator that makes one request per send.
   */
  public byte[] encode(String key) {
    String[][] values = new String[descriptorsPerRequest][];
    int[] descriptorSizes = new int[descriptorsPerRequest];
    int size = stringSize(1, domain);
    for (int d = 0; d < descriptorsPerRequest; d++) {
      values[d] = values(descriptorKey(key, d));
      for (int i = 0; i < values[d].length; i++) {
        descriptorSizes[d] += messageSize(1, entrySize(i, values[d][i]));
      }
      size += messageSize(2, descriptorSizes[d]);
    }
    if (hitsAddend > 0) {
      size += CodedOutputStream.computeUInt32Size(3, (int) hitsAddend);
    }
    byte[] bytes = new byte[size];
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      writeString(out, 1, domain);
      for (int d = 0; d < descriptorsPerRequest; d++) {
        writeLength(out, 2, descriptorSizes[d]);
        for (int i = 0; i < values[d].length; i++) {
          writeLength(out, 1, entrySize(i, values[d][i]));
          writeString(out, 1, entries.get(i).key());
          writeString(out, 2, values[d][i]);
        }
      }
      if (hitsAddend > 0) {
        out.writeUInt32(3, (int) hitsAddend);
      }
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("the request's size was computed wrong", e);
    }
    return bytes;
  }

  private String descriptorKey(String key, int descriptor) {
    return descriptorsPerRequest == 1 ? key : key + "." + descriptor;
  }

  /** The entries' values for one descriptor key. */
  private String[] values(String key) {
    boolean placeholder = false;
    for (Entry entry : entries) {
      placeholder |= entry.value().contains(KEY);
    }
    String[] values = new String[entries.size()];
    for (int i = 0; i < values.length; i++) {
      String value = entries.get(i).value();
      if (placeholder) {
        values[i] = value.replace(KEY, key);
      } else {
        values[i] = i == values.length - 1 ? value + key : value;
      }
    }
    return values;
  }

  private int entrySize(int entry, String value) {
    return stringSize(1, entries.get(entry).key()) + stringSize(2, value);
  }

  /** proto3 leaves empty strings out. */
  private static int stringSize(int field, String value) {
    return value.isEmpty() ? 0 : CodedOutputStream.computeStringSize(field, value);
  }

  private static void writeString(CodedOutputStream out, int field, String value)
      throws IOException {
    if (!value.isEmpty()) {
      out.writeString(field, value);
    }
  }

  private static int messageSize(int field, int size) {
    return CodedOutputStream.computeTagSize(field)
        + CodedOutputStream.computeUInt32SizeNoTag(size)
        + size;
  }

  private static void writeLength(CodedOutputStream out, int field, int size) throws IOException {
    out.writeTag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(size);
  }

  /** Parses {@code key=value}; the value may be empty or hold {@value #KEY}. */
  public static Entry parseEntry(String text) {
    int equals = text.indexOf('=');
    if (equals <= 0) {
      throw new IllegalArgumentException(
          "invalid descriptor entry '" + text + "'; expected KEY=VALUE");
    }
    return new Entry(text.substring(0, equals), text.substring(equals + 1));
  }
}
