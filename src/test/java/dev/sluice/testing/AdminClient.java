package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP client for the admin port. */
public final class AdminClient {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;
  private final String token;

  public AdminClient(int port) {
    this(port, null);
  }

  private AdminClient(int port, String token) {
    this.port = port;
    this.token = token;
  }

  /** This client sending {@code Authorization: Bearer <token>} on every request. */
  public AdminClient withToken(String bearerToken) {
    return new AdminClient(port, bearerToken);
  }

  public HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  public HttpResponse<String> post(String path, String body) {
    return send(
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  public HttpResponse<String> delete(String path) {
    return send(HttpRequest.newBuilder(uri(path)).DELETE());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      if (token != null) {
        request.header("Authorization", "Bearer " + token);
      }
      return http.send(
          request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
