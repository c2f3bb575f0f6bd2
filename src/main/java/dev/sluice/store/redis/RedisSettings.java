package dev.sluice.store.redis;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the Redis store connects and how.
 *
 * @param url {@code redis://[user:password@]host[:port][/db]}, or {@code rediss://} for TLS; port
 *     6379 and database 0 when left out. A password alone is written {@code
 *     redis://:password@host}.
 * @param timeout both the connect timeout and the socket (reply) timeout, at least 1 ms: a request
 *     whose pipeline gets no reply within it fails
 * @param poolSize how many connections the store keeps, at least 1; each is a lane with one writer
 *     thread that sends everything queued for it as one pipeline, so a few (2 to 4) serve any load
 *     and more only spread requests thinner across round trips
 * @param keyPrefix prepended to every key the store writes, so several deployments can share one
 *     Redis; may be empty, never null
 */
public record RedisSettings(URI url, Duration timeout, int poolSize, String keyPrefix) {
  private static final int DEFAULT_PORT = 6379;

  public RedisSettings {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(keyPrefix, "keyPrefix");
    validateUrl(url);
    if (timeout.compareTo(Duration.ofMillis(1)) < 0
        || timeout.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException(
          "redis timeout must be between 1ms and " + Integer.MAX_VALUE + "ms: " + timeout);
    }
    if (poolSize < 1) {
      throw new IllegalArgumentException("redis pool size must be >= 1: " + poolSize);
    }
  }

  /** Settings without a key prefix. */
  public RedisSettings(URI url, Duration timeout, int poolSize) {
    this(url, timeout, poolSize, "");
  }

  public String host() {
    return url.getHost();
  }

  public int port() {
    return url.getPort() == -1 ? DEFAULT_PORT : url.getPort();
  }

  /** The logical database selected after connecting; 0 when the URL has no path. */
  public int database() {
    String path = url.getPath();
    return path == null || path.isEmpty() || path.equals("/")
        ? 0
        : Integer.parseInt(path, 1, path.length(), 10);
  }

  /** True for {@code rediss://}. */
  public boolean tls() {
    return url.getScheme().toLowerCase(Locale.ROOT).equals("rediss");
  }

  /** The ACL user, when the URL names one before the colon. */
  public Optional<String> user() {
    String userInfo = url.getUserInfo();
    if (userInfo == null || userInfo.startsWith(":")) {
      return Optional.empty();
    }
    return Optional.of(userInfo.substring(0, userInfo.indexOf(':')));
  }

  /** The password, when the URL has one (after the colon, percent-decoded). */
  public Optional<String> password() {
    String userInfo = url.getUserInfo();
    return userInfo == null
        ? Optional.empty()
        : Optional.of(userInfo.substring(userInfo.indexOf(':') + 1));
  }

  /** {@code host:port}, for log lines and error messages; never shows credentials. */
  public String address() {
    return host() + ":" + port();
  }

  /** Masks the password, so settings can be logged. */
  @Override
  public String toString() {
    return "RedisSettings[url="
        + redacted(url)
        + ", timeout="
        + timeout
        + ", poolSize="
        + poolSize
        + ", keyPrefix="
        + keyPrefix
        + "]";
  }

  private static void validateUrl(URI url) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("redis") && !scheme.equals("rediss")) {
      throw new IllegalArgumentException(
          "redis url must start with redis:// or rediss://: " + redacted(url));
    }
    if (url.getHost() == null || url.getHost().isEmpty()) {
      throw new IllegalArgumentException(
          "redis url must name a host (letters, digits, '-' and '.'): " + redacted(url));
    }
    if (url.getPort() == 0 || url.getPort() > 65_535) {
      throw new IllegalArgumentException("redis url port must be 1..65535: " + redacted(url));
    }
    String path = url.getPath();
    if (path != null && !path.isEmpty() && !path.matches("/\\d{0,9}")) {
      throw new IllegalArgumentException(
          "redis url path must be /<database number>: " + redacted(url));
    }
    if (url.getQuery() != null || url.getFragment() != null) {
      throw new IllegalArgumentException(
          "redis url must not have a query or fragment: " + redacted(url));
    }
    String userInfo = url.getUserInfo();
    if (userInfo != null && !userInfo.contains(":")) {
      throw new IllegalArgumentException(
          "redis url credentials must be user:password or :password: " + redacted(url));
    }
  }

  /** The URL with its password replaced by {@code ***}. */
  static String redacted(URI url) {
    String userInfo = url.getRawUserInfo();
    if (userInfo == null) {
      return url.toString();
    }
    int colon = userInfo.indexOf(':');
    String masked = colon < 0 ? "***" : userInfo.substring(0, colon + 1) + "***";
    return url.toString().replace(userInfo + "@", masked + "@");
  }
}
