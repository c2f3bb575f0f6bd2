package dev.sluice.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.sluice.rlqs.RlqsSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The RLQS part of {@code /ui/data}: absent when the service is off, its rows when on. */
class LiveJsonTest {
  private static final LiveSnapshot TRAFFIC =
      new LiveSnapshot(1_700_000_000L, List.of(), List.of());
  private static final LiveStatus STATUS =
      new LiveStatus(
          "memory", true, "CLOSED", "", "error", "abc", Instant.EPOCH, List.of(), Optional.empty());

  @Test
  void of_rlqsOff_noRlqs() {
    JsonObject json =
        JsonParser.parseString(LiveJson.of(TRAFFIC, STATUS, Optional.empty())).getAsJsonObject();

    // Gson leaves null members out, as it does last_reload_error: the page reads both as absent.
    assertThat(json.has("store")).isTrue();
    assertThat(json.has("rlqs")).isFalse();
  }

  @Test
  void of_rlqsOn_streamsBucketsAndOneRowPerRule() {
    RlqsSnapshot rlqs =
        new RlqsSnapshot(
            2, 3, List.of(new RlqsSnapshot.RuleRow("edge", "name_api", 3, 99.5, 100, 1200, 40)));

    JsonObject json =
        JsonParser.parseString(LiveJson.of(TRAFFIC, STATUS, Optional.of(rlqs)))
            .getAsJsonObject()
            .getAsJsonObject("rlqs");

    assertThat(json.get("streams").getAsInt()).isEqualTo(2);
    assertThat(json.get("buckets").getAsLong()).isEqualTo(3);
    JsonObject row = json.getAsJsonArray("rules").get(0).getAsJsonObject();
    assertThat(row.get("domain").getAsString()).isEqualTo("edge");
    assertThat(row.get("rule").getAsString()).isEqualTo("name_api");
    assertThat(row.get("buckets").getAsLong()).isEqualTo(3);
    assertThat(row.get("assigned_per_second").getAsDouble()).isEqualTo(99.5);
    assertThat(row.get("limit_per_second").getAsDouble()).isEqualTo(100);
    assertThat(row.get("reported_allowed").getAsLong()).isEqualTo(1200);
    assertThat(row.get("reported_denied").getAsLong()).isEqualTo(40);
  }
}
