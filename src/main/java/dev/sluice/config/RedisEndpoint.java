package dev.sluice.config;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where Redis is, parsed once from {@code --redis-url}: whatever {@link #parse} accepts, the Redis
 * store can connect to (or keep retrying), so no URL problem surfaces only at startup. One record
 * per URL form:
 *
 * <pre>
 * redis://[user:password@]host[:port][/db]                    rediss://... (TLS)
 * unix://[user:password@]/path/to/redis.sock[?db=N]
 * redis-cluster://[user:password@]host1:port1,host2:port2,...  rediss-cluster://...
 * redis-sentinel://[user:password@]host1:port1,host2:port2/MASTER_NAME   rediss-sentinel://...
 * </pre>
 *
 * Ports default to 6379 (26379 for sentinels), databases to 0; user and password are
 * percent-decoded; a password alone is {@code :password@}, a user without one {@code user:@}. The
 * credentials are the data nodes' (for sentinels: the master's and replicas').
 *
 * <p>{@code toString} never shows a password.
 */
public sealed interface RedisEndpoint {
  int DEFAULT_PORT = 6379;
  int DEFAULT_SENTINEL_PORT = 26379;

  /** Where this is, for log lines and errors; no credentials: {@code host:port}, a socket, … */
  String address();

  /** True when connections use TLS. */
  boolean tls();

  /** The ACL user, when the URL names one. */
  Optional<String> user();

  /** The password, when the URL has one. */
  Optional<Secret> password();

  /** A host and port of a cluster seed or a sentinel. */
  record Node(String host, int port) {
    public Node {
      Objects.requireNonNull(host, "host");
      if (host.isEmpty()) {
        throw new IllegalArgumentException("redis host must not be empty");
      }
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException("redis port must be 1..65535: " + port);
      }
    }

    @Override
    public String toString() {
      return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }
  }

  /**
   * One Redis server.
   *
   * @param database the logical database selected after connecting, 0..999999999
   * @param tls true for {@code rediss://}
   */
  record Standalone(
      String host,
      int port,
      int database,
      boolean tls,
      Optional<String> user,
      Optional<Secret> password)
      implements RedisEndpoint {
    public Standalone {
      new Node(host, port); // validates both
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
      if (database < 0) {
        throw new IllegalArgumentException("redis database must be >= 0: " + database);
      }
    }

    /** Plain {@code redis://host:port}, database 0, no credentials. */
    public static Standalone of(String host, int port) {
      return new Standalone(host, port, 0, false, Optional.empty(), Optional.empty());
    }

    @Override
    public String address() {
      return new Node(host, port).toString();
    }

    /** The URL form, password masked: {@code rediss://app:***@cache:6380/2}. */
    @Override
    public String toString() {
      return (tls ? "rediss://" : "redis://")
          + userPart(user, password)
          + address()
          + "/"
          + database;
    }
  }

  /** One server on this machine's unix socket; never TLS. */
  record Unix(Path socket, int database, Optional<String> user, Optional<Secret> password)
      implements RedisEndpoint {
    public Unix {
      Objects.requireNonNull(socket, "socket");
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
      if (database < 0) {
        throw new IllegalArgumentException("redis database must be >= 0: " + database);
      }
    }

    @Override
    public boolean tls() {
      return false;
    }

    @Override
    public String address() {
      return socket.toString();
    }

    @Override
    public String toString() {
      return "unix://" + userPart(user, password) + socket + "?db=" + database;
    }
  }

  /** A Redis Cluster; the seeds are where the slot map is first asked for. Database 0 only. */
  record Cluster(List<Node> seeds, boolean tls, Optional<String> user, Optional<Secret> password)
      implements RedisEndpoint {
    public Cluster {
      seeds = List.copyOf(seeds);
      if (seeds.isEmpty()) {
        throw new IllegalArgumentException("a redis cluster needs at least one seed node");
      }
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
    }

    @Override
    public String address() {
      return "cluster " + join(seeds);
    }

    @Override
    public String toString() {
      return (tls ? "rediss-cluster://" : "redis-cluster://")
          + userPart(user, password)
          + join(seeds);
    }
  }

  /**
   * The master named {@code masterName}, as the sentinels report it. Sentinels with a password of
   * their own get it from {@code --redis-sentinel-password} ({@link RedisConfig}).
   */
  record Sentinel(
      List<Node> sentinels,
      String masterName,
      boolean tls,
      Optional<String> user,
      Optional<Secret> password)
      implements RedisEndpoint {
    public Sentinel {
      sentinels = List.copyOf(sentinels);
      if (sentinels.isEmpty()) {
        throw new IllegalArgumentException("redis sentinel needs at least one sentinel");
      }
      Objects.requireNonNull(masterName, "masterName");
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(password, "password");
    }

    @Override
    public String address() {
      return "master '" + masterName + "' of sentinels " + join(sentinels);
    }

    @Override
    public String toString() {
      return (tls ? "rediss-sentinel://" : "redis-sentinel://")
          + userPart(user, password)
          + join(sentinels)
          + "/"
          + masterName;
    }
  }

  /**
   * Parses a URL of one of the forms above.
   *
   * @throws IllegalArgumentException with a one-line message that says what is wrong and names the
   *     URL with its password masked
   */
  static RedisEndpoint parse(String url) {
    String text = Objects.requireNonNull(url, "url").trim();
    int schemeEnd = text.indexOf("://");
    if (schemeEnd < 0) {
      throw Parsing.invalid(
          "must start with redis:// or rediss:// (or unix://, redis-cluster://,"
              + " rediss-cluster://, redis-sentinel://, rediss-sentinel://)",
          text);
    }
    String scheme = text.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
    String rest = text.substring(schemeEnd + 3);
    int at = rest.lastIndexOf('@');
    Parsing.Credentials credentials =
        at < 0 ? Parsing.Credentials.NONE : Parsing.credentials(text, rest.substring(0, at));
    String location = at < 0 ? rest : rest.substring(at + 1);
    return switch (scheme) {
      case "redis", "rediss" ->
          Parsing.standalone(text, location, scheme.equals("rediss"), credentials);
      case "unix" -> Parsing.unix(text, location, credentials);
      case "redis-cluster", "rediss-cluster" ->
          Parsing.cluster(text, location, scheme.startsWith("rediss"), credentials);
      case "redis-sentinel", "rediss-sentinel" ->
          Parsing.sentinel(text, location, scheme.startsWith("rediss"), credentials);
      default ->
          throw Parsing.invalid(
              "must start with redis:// or rediss:// (or unix://, redis-cluster://,"
                  + " rediss-cluster://, redis-sentinel://, rediss-sentinel://)",
              text);
    };
  }

  private static String userPart(Optional<String> user, Optional<Secret> password) {
    return password.isEmpty() ? user.map(u -> u + ":@").orElse("") : user.orElse("") + ":***@";
  }

  private static String join(List<Node> nodes) {
    return nodes.stream().map(Node::toString).collect(Collectors.joining(","));
  }

  /** The parsing steps shared by the URL forms; never shows a password in a message. */
  final class Parsing {
    private Parsing() {}

    record Credentials(Optional<String> user, Optional<Secret> password) {
      static final Credentials NONE = new Credentials(Optional.empty(), Optional.empty());
    }

    static Standalone standalone(String url, String location, boolean tls, Credentials c) {
      noQuery(url, location);
      int slash = location.indexOf('/');
      Node node = node(url, slash < 0 ? location : location.substring(0, slash), DEFAULT_PORT);
      int database = slash < 0 ? 0 : database(url, location.substring(slash + 1));
      return new Standalone(node.host(), node.port(), database, tls, c.user(), c.password());
    }

    static Unix unix(String url, String location, Credentials c) {
      int query = location.indexOf('?');
      String path = query < 0 ? location : location.substring(0, query);
      if (!path.startsWith("/") || path.length() < 2) {
        throw invalid("needs an absolute socket path: unix:///path/to/redis.sock", url);
      }
      int database = 0;
      if (query >= 0) {
        String params = location.substring(query + 1);
        if (!params.startsWith("db=")) {
          throw invalid("the only query parameter of unix:// is db=N", url);
        }
        database = database(url, params.substring(3));
      }
      return new Unix(Path.of(path), database, c.user(), c.password());
    }

    static Cluster cluster(String url, String location, boolean tls, Credentials c) {
      noQuery(url, location);
      String hosts =
          location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
      if (hosts.contains("/")) {
        throw invalid("a cluster has only database 0: no /db after the seed nodes", url);
      }
      return new Cluster(nodes(url, hosts, DEFAULT_PORT), tls, c.user(), c.password());
    }

    static Sentinel sentinel(String url, String location, boolean tls, Credentials c) {
      noQuery(url, location);
      int slash = location.indexOf('/');
      String master = slash < 0 ? "" : location.substring(slash + 1);
      if (master.isEmpty() || master.contains("/")) {
        throw invalid(
            "must name the master after the sentinels: redis-sentinel://h1:26379,h2:26379/mymaster",
            url);
      }
      List<Node> sentinels = nodes(url, location.substring(0, slash), DEFAULT_SENTINEL_PORT);
      return new Sentinel(sentinels, master, tls, c.user(), c.password());
    }

    private static List<Node> nodes(String url, String hosts, int defaultPort) {
      List<Node> nodes = new ArrayList<>();
      for (String hostPort : hosts.split(",", -1)) {
        nodes.add(node(url, hostPort.trim(), defaultPort));
      }
      return nodes;
    }

    private static Node node(String url, String hostPort, int defaultPort) {
      String host;
      String port;
      if (hostPort.startsWith("[")) {
        int close = hostPort.indexOf(']');
        if (close < 0) {
          throw invalid("has an unclosed '[' in a host", url);
        }
        host = hostPort.substring(1, close);
        port = hostPort.startsWith(":", close + 1) ? hostPort.substring(close + 2) : "";
      } else {
        int colon = hostPort.lastIndexOf(':');
        host = colon < 0 ? hostPort : hostPort.substring(0, colon);
        port = colon < 0 ? "" : hostPort.substring(colon + 1);
      }
      if (host.isEmpty() || !host.matches("[A-Za-z0-9.:-]+")) {
        throw invalid("must name a host (letters, digits, '-' and '.')", url);
      }
      if (port.isEmpty()) {
        return new Node(host, defaultPort);
      }
      if (!port.matches("\\d{1,5}")
          || Integer.parseInt(port) < 1
          || Integer.parseInt(port) > 65_535) {
        throw invalid("port must be 1..65535", url);
      }
      return new Node(host, Integer.parseInt(port));
    }

    private static int database(String url, String text) {
      if (text.isEmpty()) {
        return 0;
      }
      if (!text.matches("\\d{1,9}")) {
        throw invalid("path must be /<database number>", url);
      }
      return Integer.parseInt(text);
    }

    private static void noQuery(String url, String location) {
      if (location.contains("?") || location.contains("#")) {
        throw invalid("must not have a query or fragment", url);
      }
    }

    static Credentials credentials(String url, String userInfo) {
      int colon = userInfo.indexOf(':');
      if (colon < 0) {
        // A lone word may be a password put where the user goes: refuse it rather than log it.
        throw invalid(
            "credentials must be user:password or :password (a user without a password: user:)",
            url);
      }
      String user = userInfo.substring(0, colon);
      String password = userInfo.substring(colon + 1);
      return new Credentials(
          user.isEmpty() ? Optional.empty() : Optional.of(decode(user)),
          password.isEmpty() && !user.isEmpty()
              ? Optional.empty()
              : Optional.of(Secret.of(decode(password))));
    }

    private static String decode(String text) {
      // '+' is a literal plus in a URL's user info, not a space as in a form.
      return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    static IllegalArgumentException invalid(String problem, String url) {
      return new IllegalArgumentException("redis url " + problem + ": " + redacted(url));
    }

    /** The URL with whatever follows the first ':' of its credentials replaced by {@code ***}. */
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
}
