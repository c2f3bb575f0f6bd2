package dev.sluice.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where Redis is, parsed once from {@code --redis-url}: whatever {@link #parse} accepts, the Redis
 * store can connect to (or keep retrying), so no URL problem surfaces only at startup. One record
 * per URL form; a new form (cluster, sentinel, unix socket) is a new record here plus its case in
 * the store's connector, in the same change.
 *
 * <p>{@code toString} never shows a password.
 */
public sealed interface RedisEndpoint {
  /** {@code host:port} (or the form's equivalent), for log lines and errors; no credentials. */
  String address();

  /**
   * Parses {@code redis://[user:password@]host[:port][/db]}, or {@code rediss://} for TLS; port
   * 6379 and database 0 when left out. A password alone is written {@code redis://:password@host}.
   *
   * @throws IllegalArgumentException naming the URL with its password masked
   */
  static RedisEndpoint parse(String url) {
    URI uri;
    try {
      uri = new URI(url.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "invalid redis url: " + redacted(url) + "; expected redis://host:port[/db]");
    }
    return Standalone.of(uri);
  }

  /**
   * One Redis server.
   *
   * @param database the logical database selected after connecting, 0..999999999
   * @param tls true for {@code rediss://}
   * @param user the ACL user, when the URL names one before the colon
   * @param password when the URL has one (after the colon, percent-decoded)
   */
  record Standalone(
      String host,
      int port,
      int database,
      boolean tls,
      Optional<String> user,
      Optional<Secret> password)
      implements RedisEndpoint {
    private static final int DEFAULT_PORT = 6379;

    public Standalone {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
      if (host.isEmpty()) {
        throw new IllegalArgumentException("redis host must not be empty");
      }
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException("redis port must be 1..65535: " + port);
      }
      if (database < 0) {
        throw new IllegalArgumentException("redis database must be >= 0: " + database);
      }
    }

    /** Plain {@code redis://host:port}, database 0, no credentials. */
    public static Standalone of(String host, int port) {
      return new Standalone(host, port, 0, false, Optional.empty(), Optional.empty());
    }

    static Standalone of(URI url) {
      String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("redis") && !scheme.equals("rediss")) {
        throw invalid("must start with redis:// or rediss://", url);
      }
      if (url.getHost() == null || url.getHost().isEmpty()) {
        throw invalid("must name a host (letters, digits, '-' and '.')", url);
      }
      if (url.getPort() == 0 || url.getPort() > 65_535) {
        throw invalid("port must be 1..65535", url);
      }
      String path = url.getPath();
      if (path != null && !path.isEmpty() && !path.matches("/\\d{0,9}")) {
        throw invalid("path must be /<database number>", url);
      }
      if (url.getQuery() != null || url.getFragment() != null) {
        throw invalid("must not have a query or fragment", url);
      }
      String userInfo = url.getUserInfo();
      if (userInfo != null && !userInfo.contains(":")) {
        throw invalid("credentials must be user:password or :password", url);
      }
      int colon = userInfo == null ? -1 : userInfo.indexOf(':');
      return new Standalone(
          url.getHost(),
          url.getPort() == -1 ? DEFAULT_PORT : url.getPort(),
          path == null || path.length() <= 1 ? 0 : Integer.parseInt(path, 1, path.length(), 10),
          scheme.equals("rediss"),
          colon > 0 ? Optional.of(userInfo.substring(0, colon)) : Optional.empty(),
          colon >= 0 ? Optional.of(Secret.of(userInfo.substring(colon + 1))) : Optional.empty());
    }

    @Override
    public String address() {
      return host + ":" + port;
    }

    /** The URL form, password masked: {@code rediss://app:***@cache:6380/2}. */
    @Override
    public String toString() {
      String credentials =
          password.isEmpty() ? user.map(u -> u + "@").orElse("") : user.orElse("") + ":***@";
      return (tls ? "rediss://" : "redis://") + credentials + address() + "/" + database;
    }
  }

  private static IllegalArgumentException invalid(String problem, URI url) {
    return new IllegalArgumentException("redis url " + problem + ": " + redacted(url.toString()));
  }

  /**
   * The URL text with whatever follows the first ':' of its credentials replaced by {@code ***}.
   */
  private static String redacted(String url) {
    int scheme = url.indexOf("://");
    int at = url.lastIndexOf('@');
    if (scheme < 0 || at < scheme) {
      return url;
    }
    String userInfo = url.substring(scheme + 3, at);
    int colon = userInfo.indexOf(':');
    String masked = colon < 0 ? "***" : userInfo.substring(0, colon + 1) + "***";
    return url.substring(0, scheme + 3) + masked + url.substring(at);
  }
}
