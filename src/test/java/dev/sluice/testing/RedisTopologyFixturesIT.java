package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** The topology fixtures themselves: each starts what it says, on its own ports. */
class RedisTopologyFixturesIT {
  @RegisterExtension static final RedisClusterExtension cluster = new RedisClusterExtension();
  @RegisterExtension static final RedisSentinelExtension sentinel = new RedisSentinelExtension();

  @RegisterExtension
  static final RedisTlsExtension tls = new RedisTlsExtension("IP:127.0.0.1", false);

  @RegisterExtension static final RedisServerExtension unix = RedisServerExtension.withUnixSocket();

  @Test
  void cluster_hasThreeMastersCoveringEverySlot() {
    assertThat(cluster.masters()).hasSize(3);
    assertThat(cluster.masters().values().stream().mapToInt(java.util.List::size).sum())
        .isEqualTo(16_384);
    assertThat(cluster.liveNodes()).hasSize(6).noneMatch(node -> node.getPort() == 6379);
  }

  @Test
  void sentinel_namesAWritableMaster() {
    try (Jedis master = sentinel.client(sentinel.master())) {
      assertThat(master.info("replication")).contains("role:master", "connected_slaves:1");
    }
  }

  @Test
  void tls_hasCertificatesAndAPort() {
    assertThat(tls.ca()).exists();
    assertThat(tls.clientCert()).exists();
    assertThat(Files.exists(tls.clientKey())).isTrue();
    assertThat(tls.tlsPort()).isNotEqualTo(tls.plainPort());
  }

  @Test
  void unix_listensOnItsSocket_andAclUsersCanBeAdded() {
    assertThat(unix.socket()).exists();
    unix.addUser("fixture-user", "pw");
    try (Jedis jedis = unix.client()) {
      assertThat(jedis.aclUsers()).contains("fixture-user");
    }
  }
}
