package dev.sluice.refstats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.AdminHttpConfig;
import dev.sluice.metrics.SluiceMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReferenceMetricsServerTest {
  private final ReferenceStats stats =
      ReferenceStats.create(Optional.empty(), false, new PrometheusRegistry());
  private final ReferenceMetricsServer server =
      ReferenceMetricsServer.start(
          new InetSocketAddress("127.0.0.1", 0), "/stats", stats, AdminHttpConfig.defaults());
  private final HttpClient client = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void get_onItsPath_servesTheReferenceNames() throws Exception {
    new SluiceMetrics(new PrometheusRegistry(), stats).request("OK", 1_000_000);

    HttpResponse<String> response = send("GET", "/stats");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .contains("text/plain; version=0.0.4; charset=utf-8");
    assertThat(response.body())
        .contains("ratelimit_service_total_requests{grpc_method=\"ShouldRateLimit\"} 1\n");
  }

  @Test
  void otherPathsAndMethods_refused() throws Exception {
    assertThat(send("GET", "/metrics").statusCode()).isEqualTo(404);
    assertThat(send("GET", "/stats/more").statusCode()).isEqualTo(404);
    HttpResponse<String> post = send("POST", "/stats");
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");
    HttpResponse<String> head = send("HEAD", "/stats");
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
  }
}
