package dev.sluice.metrics;

import static dev.sluice.testing.RlsRequests.descriptor;
import static dev.sluice.testing.RlsRequests.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.sluice.testing.SluiceJarProcess;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A {@code detailed_metric} rule labels its series by request value. 1,100 requests with distinct 8
 * KB values used to make a 50 MB {@code /metrics} and, at 256 MB of heap, an OutOfMemoryError on
 * the admin port. Against the packaged jar at {@code -Xmx256m}: {@code /metrics} answers, small,
 * with every label at most 128 bytes, and {@code /counters/label} gives the admin the whole value
 * behind a cut label.
 */
class DetailedMetricFloodIT {
  private static final String RULES =
      """
      domain: d
      descriptors:
        - key: client
          detailed_metric: true
          rate_limit: {unit: minute, requests_per_unit: 5}
      """;
  private static final int VALUES = 1_100;
  private static final int VALUE_BYTES = 8_192;
  private static final Pattern RULE_LABEL =
      Pattern.compile(
          "^sluice_rule_hits_total\\{domain=\"d\",rule=\"([^\"]*)\"}", Pattern.MULTILINE);

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void metrics_elevenHundredDistinct8KbDetailedValues_boundedAndTheWholeValueOnCounters()
      throws Exception {
    try (SluiceJarProcess sluice = SluiceJarProcess.start("256m", RULES)) {
      send(sluice.grpcPort());

      HttpResponse<String> metrics = get(sluice.httpPort(), "/metrics");
      int bytes = metrics.body().getBytes(StandardCharsets.UTF_8).length;
      List<String> labels = labels(metrics.body());
      System.out.printf(
          "/metrics after %d distinct %d-byte detailed values: %d bytes, %d series of the rule%n",
          VALUES, VALUE_BYTES, bytes, labels.size());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(bytes).as("/metrics bytes").isLessThan(2 << 20);
      assertThat(labels).hasSizeLessThanOrEqualTo(SluiceMetrics.DETAILED_VALUES_PER_RULE + 1);
      assertThat(labels)
          .allSatisfy(
              label ->
                  assertThat(label.getBytes(StandardCharsets.UTF_8).length)
                      .isLessThanOrEqualTo(128));

      String first = "client_" + value(0);
      String cut =
          labels.stream().filter(l -> l.startsWith("client_000000")).findFirst().orElseThrow();
      HttpResponse<String> whole =
          get(
              sluice.httpPort(),
              "/counters/label?domain=d&label=" + URLEncoder.encode(cut, StandardCharsets.UTF_8));
      assertThat(whole.statusCode()).isEqualTo(200);
      JsonObject found = JsonParser.parseString(whole.body()).getAsJsonObject();
      assertThat(found.get("rule").getAsString()).isEqualTo("client");
      assertThat(found.get("value").getAsString()).isEqualTo(first);

      assertThat(sluice.isAlive()).isTrue();
      assertThat(sluice.output()).doesNotContain("OutOfMemoryError");
    }
  }

  private static String value(int i) {
    return String.format("%06d", i) + "v".repeat(VALUE_BYTES - 6);
  }

  private static void send(int grpcPort) {
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
    try {
      RateLimitServiceGrpc.RateLimitServiceBlockingStub rls =
          RateLimitServiceGrpc.newBlockingStub(channel);
      for (int i = 0; i < VALUES; i++) {
        rls.withDeadlineAfter(10, TimeUnit.SECONDS)
            .shouldRateLimit(request("d", descriptor("client", value(i))));
      }
    } finally {
      channel.shutdownNow();
    }
  }

  private static List<String> labels(String metrics) {
    List<String> labels = new ArrayList<>();
    Matcher m = RULE_LABEL.matcher(metrics);
    while (m.find()) {
      labels.add(m.group(1));
    }
    return labels;
  }

  private HttpResponse<String> get(int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(30))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
