package dev.sluice.bench;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * ShouldRateLimit as the load generator sends it: requests are bytes serialised once up front, and
 * an answer is read only as far as its {@code overall_code}. The generator needs nothing else of
 * either message, and a request encoded per send or an answer decoded whole is CPU (and garbage)
 * that a generator pinned to one core takes from sending. The method's name and wire format are
 * Envoy's, so any RLS server answers it.
 */
final class RlsWire {
  /** {@code overall_code}'s tag in {@code RateLimitResponse}: field number, then varint (0). */
  private static final int OVERALL_CODE_TAG =
      RateLimitResponse.OVERALL_CODE_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;

  /** ShouldRateLimit with a serialised request and the answer's overall code number. */
  static final MethodDescriptor<byte[], Integer> SHOULD_RATE_LIMIT =
      RateLimitServiceGrpc.getShouldRateLimitMethod().toBuilder(new RequestBytes(), new Answer())
          .build();

  private RlsWire() {}

  /** The code an answer carries, {@link RateLimitResponse.Code#UNRECOGNIZED} for a new number. */
  static RateLimitResponse.Code code(int number) {
    RateLimitResponse.Code code = RateLimitResponse.Code.forNumber(number);
    return code == null ? RateLimitResponse.Code.UNRECOGNIZED : code;
  }

  /** Streams the bytes as they are; gRPC frames them without copying them into a buffer first. */
  static final class RequestBytes implements MethodDescriptor.Marshaller<byte[]> {
    @Override
    public InputStream stream(byte[] value) {
      return new BytesStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Reads {@code overall_code} and skips every other field; 0 (UNKNOWN, proto3's default) when the
   * answer does not hold it.
   */
  static final class Answer implements MethodDescriptor.Marshaller<Integer> {
    @Override
    public InputStream stream(Integer code) {
      return new BytesStream(
          RateLimitResponse.newBuilder().setOverallCodeValue(code).build().toByteArray());
    }

    @Override
    public Integer parse(InputStream stream) {
      try {
        CodedInputStream in = CodedInputStream.newInstance(stream.readAllBytes());
        int code = 0;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
          if (tag == OVERALL_CODE_TAG) {
            code = in.readEnum();
          } else if (!in.skipField(tag)) {
            break; // an end-group tag: nothing of ours follows
          }
        }
        return code;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * A byte array as a stream that says its length ({@link KnownLength}) and writes itself in one
   * call ({@link Drainable}): gRPC would otherwise copy it through a fresh 8 KiB buffer per
   * message.
   */
  static final class BytesStream extends InputStream implements KnownLength, Drainable {
    private final byte[] bytes;
    private int position;

    BytesStream(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public int drainTo(OutputStream target) throws IOException {
      int length = bytes.length - position;
      target.write(bytes, position, length);
      position = bytes.length;
      return length;
    }

    @Override
    public int read() {
      return position < bytes.length ? bytes[position++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] into, int offset, int length) {
      if (length == 0) {
        return 0;
      }
      int count = Math.min(length, bytes.length - position);
      if (count <= 0) {
        return -1;
      }
      System.arraycopy(bytes, position, into, offset, count);
      position += count;
      return count;
    }

    @Override
    public int available() {
      return bytes.length - position;
    }
  }
}
