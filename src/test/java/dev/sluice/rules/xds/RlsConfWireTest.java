package dev.sluice.rules.xds;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.sluice.rules.xds.v3.RateLimitConfig;
import dev.sluice.rules.xds.v3.RateLimitDescriptor;
import dev.sluice.rules.xds.v3.RateLimitPolicy;
import dev.sluice.rules.xds.v3.RateLimitUnit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Our rls_conf.proto against the field numbers of envoyproxy/ratelimit's
 * api/ratelimit/config/ratelimit/v3/rls_conf.proto, written out here by hand: a wrong number in our
 * file would decode as an unknown field, silently, which is what this test catches.
 */
class RlsConfWireTest {

  @Test
  void decode_referenceFieldNumbers_everyFieldLandsWhereItBelongs() throws IOException {
    byte[] replace = message(out -> out.writeString(1, "old-rule"));
    byte[] policy =
        message(
            out -> {
              out.writeEnum(1, 7); // unit = WEEK (7 in the reference, after YEAR = 6)
              out.writeUInt32(
                  2, (int) 4_000_000_000L); // requests_per_unit, uint32 above int's range
              out.writeBool(3, true); // unlimited
              out.writeString(4, "per-user"); // name
              out.writeByteArray(5, replace); // replaces
            });
    byte[] metadata =
        Struct.newBuilder()
            .putFields("team", Value.newBuilder().setStringValue("payments").build())
            .build()
            .toByteArray();
    byte[] child = message(out -> out.writeString(1, "child"));
    byte[] descriptor =
        message(
            out -> {
              out.writeString(1, "user"); // key
              out.writeString(2, "alice"); // value
              out.writeByteArray(3, policy); // rate_limit
              out.writeByteArray(4, child); // descriptors
              out.writeBool(5, true); // shadow_mode
              out.writeBool(6, true); // detailed_metric
              out.writeBool(7, true); // quota_mode
              out.writeByteArray(8, metadata); // metadata
            });
    byte[] config =
        message(
            out -> {
              out.writeString(1, "edge-config"); // name
              out.writeString(2, "edge"); // domain
              out.writeByteArray(3, descriptor); // descriptors
            });

    RateLimitConfig decoded = RateLimitConfig.parseFrom(config);

    assertThat(decoded.getUnknownFields().asMap()).isEmpty();
    assertThat(decoded.getName()).isEqualTo("edge-config");
    assertThat(decoded.getDomain()).isEqualTo("edge");
    RateLimitDescriptor d = decoded.getDescriptors(0);
    assertThat(d.getUnknownFields().asMap()).isEmpty();
    assertThat(d.getKey()).isEqualTo("user");
    assertThat(d.getValue()).isEqualTo("alice");
    assertThat(d.getDescriptors(0).getKey()).isEqualTo("child");
    assertThat(d.getShadowMode()).isTrue();
    assertThat(d.getDetailedMetric()).isTrue();
    assertThat(d.getQuotaMode()).isTrue();
    assertThat(d.getMetadata().getFieldsOrThrow("team").getStringValue()).isEqualTo("payments");
    RateLimitPolicy p = d.getRateLimit();
    assertThat(p.getUnknownFields().asMap()).isEmpty();
    assertThat(p.getUnit()).isEqualTo(RateLimitUnit.WEEK);
    assertThat(Integer.toUnsignedLong(p.getRequestsPerUnit())).isEqualTo(4_000_000_000L);
    assertThat(p.getUnlimited()).isTrue();
    assertThat(p.getName()).isEqualTo("per-user");
    assertThat(p.getReplaces(0).getName()).isEqualTo("old-rule");
  }

  @Test
  void unitNumbers_matchTheReference() {
    assertThat(RateLimitUnit.UNKNOWN.getNumber()).isZero();
    assertThat(RateLimitUnit.SECOND.getNumber()).isEqualTo(1);
    assertThat(RateLimitUnit.MINUTE.getNumber()).isEqualTo(2);
    assertThat(RateLimitUnit.HOUR.getNumber()).isEqualTo(3);
    assertThat(RateLimitUnit.DAY.getNumber()).isEqualTo(4);
    assertThat(RateLimitUnit.MONTH.getNumber()).isEqualTo(5);
    assertThat(RateLimitUnit.YEAR.getNumber()).isEqualTo(6);
    assertThat(RateLimitUnit.WEEK.getNumber()).isEqualTo(7);
  }

  @Test
  void typeUrl_isTheReferencesFullName() {
    assertThat("type.googleapis.com/" + RateLimitConfig.getDescriptor().getFullName())
        .isEqualTo(XdsRuleClient.TYPE_URL);
  }

  private interface Writes {
    void to(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Writes writes) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    writes.to(out);
    out.flush();
    return bytes.toByteArray();
  }
}
