package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UnknownFieldSet;
import dev.sluice.rules.Entry;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class RlsWireTest {
  private static final RequestTemplate TEMPLATE =
      new RequestTemplate("bench", List.of(new Entry("user", "u-")), 4, 3);

  @Test
  void requestStream_drained_isExactlyWhatTheStubsMarshallerWrites() throws Exception {
    RateLimitRequest request = TEMPLATE.build("42");
    InputStream ours = RlsWire.SHOULD_RATE_LIMIT.streamRequest(request.toByteArray());
    InputStream stubs = RateLimitServiceGrpc.getShouldRateLimitMethod().streamRequest(request);

    ByteArrayOutputStream drained = new ByteArrayOutputStream();
    assertThat(ours).isInstanceOf(Drainable.class).isInstanceOf(KnownLength.class);
    assertThat(ours.available()).isEqualTo(request.getSerializedSize());
    int written = ((Drainable) ours).drainTo(drained);

    assertThat(written).isEqualTo(request.getSerializedSize());
    assertThat(drained.toByteArray()).isEqualTo(stubs.readAllBytes());
    assertThat(ours.available()).isZero();
  }

  @Test
  void requestStream_readByteByByteAndInChunks_sameBytes() throws Exception {
    byte[] bytes = TEMPLATE.build("7").toByteArray();
    InputStream single = RlsWire.SHOULD_RATE_LIMIT.streamRequest(bytes);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int b = single.read(); b >= 0; b = single.read()) {
      out.write(b);
    }

    assertThat(out.toByteArray()).isEqualTo(bytes);
    assertThat(RlsWire.SHOULD_RATE_LIMIT.streamRequest(bytes).readAllBytes()).isEqualTo(bytes);
  }

  @Test
  void parseAnswer_overLimitWithStatusesAndUnknownFields_overallCodeOnly() throws Exception {
    RateLimitResponse response =
        RateLimitResponse.newBuilder()
            .addStatuses(DescriptorStatus.newBuilder().setCode(Code.OK).setLimitRemaining(9))
            .setOverallCode(Code.OVER_LIMIT)
            .addStatuses(DescriptorStatus.newBuilder().setCode(Code.OVER_LIMIT))
            .setUnknownFields(
                UnknownFieldSet.newBuilder()
                    .addField(
                        99, UnknownFieldSet.Field.newBuilder().addFixed64(1L).addVarint(5).build())
                    .build())
            .build();

    assertThat(parse(response)).isEqualTo(Code.OVER_LIMIT);
  }

  @Test
  void parseAnswer_ok_ok() throws Exception {
    assertThat(parse(RateLimitResponse.newBuilder().setOverallCode(Code.OK).build()))
        .isEqualTo(Code.OK);
  }

  @Test
  void parseAnswer_noOverallCode_unknownAsProto3Reads() throws Exception {
    RateLimitResponse empty =
        RateLimitResponse.newBuilder()
            .addStatuses(DescriptorStatus.newBuilder().setCode(Code.OK))
            .build();

    assertThat(parse(empty)).isEqualTo(Code.UNKNOWN);
  }

  @Test
  void code_numberNoEnumHas_unrecognized() {
    assertThat(RlsWire.code(77)).isEqualTo(Code.UNRECOGNIZED);
  }

  private static Code parse(RateLimitResponse response) throws Exception {
    int number =
        RlsWire.SHOULD_RATE_LIMIT.parseResponse(new ByteArrayInputStream(response.toByteArray()));
    assertThat(number)
        .isEqualTo(RateLimitResponse.parseFrom(response.toByteString()).getOverallCodeValue());
    return RlsWire.code(number);
  }
}
