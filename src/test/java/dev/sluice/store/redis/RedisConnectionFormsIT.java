package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.RedisTls;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import dev.sluice.testing.FakeOldRedis;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.testing.RedisTlsExtension;
import dev.sluice.testing.TestCertificates;
import dev.sluice.threads.DaemonThreadFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every way of reaching one Redis, against real servers: TLS (CA, host name check, client
 * certificates, insecure), a unix socket, ACL users; and the one-line errors when it cannot work.
 */
class RedisConnectionFormsIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  @RegisterExtension
  static final RedisTlsExtension tls = new RedisTlsExtension("IP:127.0.0.1,DNS:localhost", false);

  @RegisterExtension
  static final RedisTlsExtension otherHost = new RedisTlsExtension("DNS:other.example", false);

  @RegisterExtension
  static final RedisTlsExtension mutual = new RedisTlsExtension("IP:127.0.0.1", true);

  @RegisterExtension static final RedisServerExtension unix = RedisServerExtension.withUnixSocket();

  private final List<RedisCounterStore> opened = new ArrayList<>();
  private final String unique = UUID.randomUUID().toString();

  @AfterEach
  void close() {
    opened.forEach(RedisCounterStore::close);
  }

  private RedisCounterStore open(String url, RedisTls tlsSettings) {
    RedisConfig settings =
        RedisConfig.builder(RedisEndpoint.parse(url))
            .timeout(TIMEOUT)
            .connections(1)
            .keyPrefix("")
            .build()
            .toBuilder()
            .tls(tlsSettings)
            .build();
    RedisCounterStore store =
        new RedisCounterStore(
                settings, Clock.systemUTC(), new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    opened.add(store);
    return store;
  }

  private static RedisTls trusting(Path ca) {
    return new RedisTls(Optional.of(ca), Optional.empty(), Optional.empty(), false);
  }

  private Usage countOnce(RedisCounterStore store) {
    Hit hit = new Hit("forms-" + unique, Limit.of(10, Unit.HOUR, Algorithm.FIXED_WINDOW), 1);
    return store.acquire(List.of(hit)).join().get(0);
  }

  @Test
  void tls_trustedCaAndMatchingHost_counts() {
    RedisCounterStore store = open("rediss://127.0.0.1:" + tls.tlsPort(), trusting(tls.ca()));
    store.ping();
    assertThat(countOnce(store).countAfter()).isEqualTo(1);
  }

  @Test
  void tls_certificateForAnotherHost_isRefusedInOneLine() {
    RedisCounterStore store =
        open("rediss://127.0.0.1:" + otherHost.tlsPort(), trusting(otherHost.ca()));
    assertThatThrownBy(store::ping)
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("127.0.0.1")
        .hasMessageContaining("No subject alternative names matching IP address 127.0.0.1")
        .hasMessageNotContaining("\n");
  }

  @Test
  void tls_insecure_acceptsACertificateForAnotherHost() {
    RedisTls insecure = new RedisTls(Optional.empty(), Optional.empty(), Optional.empty(), true);
    RedisCounterStore store = open("rediss://127.0.0.1:" + otherHost.tlsPort(), insecure);
    assertThat(countOnce(store).countAfter()).isEqualTo(1);
  }

  @Test
  void tls_untrustedCertificate_isRefusedInOneLine() {
    // The JVM's trust store does not know the fixture's CA.
    RedisCounterStore store = open("rediss://127.0.0.1:" + tls.tlsPort(), RedisTls.DEFAULTS);
    assertThatThrownBy(store::ping)
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("unable to find valid certification path")
        .hasMessageNotContaining("\n");
  }

  @Test
  void tls_clientCertificate_isPresentedWhenTheServerRequiresOne() {
    RedisTls withCert =
        new RedisTls(
            Optional.of(mutual.ca()),
            Optional.of(mutual.clientCert()),
            Optional.of(mutual.clientKey()),
            false);
    RedisCounterStore store = open("rediss://127.0.0.1:" + mutual.tlsPort(), withCert);
    assertThat(countOnce(store).countAfter()).isEqualTo(1);

    RedisCounterStore without =
        open("rediss://127.0.0.1:" + mutual.tlsPort(), trusting(mutual.ca()));
    assertThatThrownBy(without::ping).isInstanceOf(StoreException.class);
  }

  /** The form Go's x509 and cert-manager write by default; read as its PKCS#8 twin. */
  @Test
  void tls_pkcs1ClientKey_isPresentedAsWell() {
    RedisTls withPkcs1 =
        new RedisTls(
            Optional.of(mutual.ca()),
            Optional.of(mutual.clientCert()),
            Optional.of(mutual.clientPkcs1Key()),
            false);
    RedisCounterStore store = open("rediss://127.0.0.1:" + mutual.tlsPort(), withPkcs1);
    assertThat(countOnce(store).countAfter()).isEqualTo(1);
  }

  @Test
  void tls_clientKeyInNeitherForm_isRejectedNamingTheFile() throws Exception {
    Path ec = mutual.dir().resolve("traditional-ec.key");
    java.nio.file.Files.writeString(
        ec, "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");
    RedisTls bad =
        new RedisTls(
            Optional.of(mutual.ca()), Optional.of(mutual.clientCert()), Optional.of(ec), false);
    assertThatThrownBy(() -> open("rediss://127.0.0.1:" + mutual.tlsPort(), bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("traditional-ec.key")
        .hasMessageContaining("PKCS#8");
  }

  @Test
  void unixSocket_counts() {
    RedisCounterStore store = open("unix://" + unix.socket() + "?db=2", RedisTls.DEFAULTS);
    assertThat(countOnce(store).countAfter()).isEqualTo(1);
    try (var jedis = unix.client()) {
      jedis.select(2);
      assertThat(jedis.dbSize()).isPositive();
    }
  }

  @Test
  void aclUser_counts_andAWrongPasswordIsOneLineWithoutThePassword() {
    unix.addUser("sluice-" + unique, "right-password");
    String host = "127.0.0.1:" + unix.port();
    RedisCounterStore store =
        open("redis://sluice-" + unique + ":right-password@" + host, RedisTls.DEFAULTS);
    assertThat(countOnce(store).countAfter()).isEqualTo(1);

    RedisCounterStore wrong =
        open("redis://sluice-" + unique + ":wrong-password@" + host, RedisTls.DEFAULTS);
    assertThatThrownBy(wrong::ping)
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("WRONGPASS")
        .hasMessageNotContaining("wrong-password")
        .hasMessageNotContaining("\n");
  }

  @Test
  void redisOlderThanSeven_isRefusedNamingBothVersions() {
    try (FakeOldRedis old = new FakeOldRedis("6.2.14")) {
      RedisCounterStore store = open("redis://127.0.0.1:" + old.port(), RedisTls.DEFAULTS);
      assertThatThrownBy(store::ping)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("is version 6.2.14; Sluice needs Redis 7.0 or newer");
    }
  }

  @Test
  void versionMajor_readsTheLeadingNumber() {
    assertThat(RedisVersion.major("6.2.14")).isEqualTo(6);
    assertThat(RedisVersion.major("7.0.15")).isEqualTo(7);
    assertThat(RedisVersion.major("unknown")).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void certificatesFixture_keysArePkcs8() throws Exception {
    assertThat(java.nio.file.Files.readString(TestCertificates.keyOf(tls.clientCert())))
        .startsWith("-----BEGIN PRIVATE KEY-----");
  }
}
