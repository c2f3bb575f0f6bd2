package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreDataException;
import dev.sluice.store.StoreException;
import dev.sluice.store.Usage;
import dev.sluice.testing.RedisServerExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** A Redis that is down or silent fails the request with {@link StoreException}, promptly. */
class RedisStoreFailureIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final Duration TIMEOUT = Duration.ofMillis(300);

  /** Generous slack for a loaded CI machine; a hang would take far longer. */
  private static final Duration SLACK = Duration.ofSeconds(1);

  private static final List<Hit> HITS =
      List.of(
          new Hit("fw|3600|failure", Limit.of(5, Unit.HOUR, Algorithm.FIXED_WINDOW), 1),
          new Hit("tb|86400|failure", Limit.of(5, Unit.DAY, Algorithm.TOKEN_BUCKET), 1));

  private static RedisCounterStore storeAt(URI url) {
    return new RedisCounterStore(
            RedisConfig.builder(RedisEndpoint.parse(url.toString()))
                .timeout(TIMEOUT)
                .connections(2)
                .keyPrefix("")
                .build(),
            Clock.systemUTC(),
            new DaemonThreadFactory("sluice-redis-lane"))
        .start();
  }

  @Test
  void acquire_nothingListening_failsWithStoreExceptionWithinTheTimeout() throws IOException {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    try (RedisCounterStore store = storeAt(URI.create("redis://127.0.0.1:" + port))) {
      assertFailsPromptly(store, "127.0.0.1:" + port);
    }
  }

  @Test
  void acquire_serverNeverAnswers_failsWithStoreExceptionWithinAboutTheTimeout()
      throws IOException {
    // Connections complete in the listen backlog, but nothing ever reads or replies.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        RedisCounterStore store =
            storeAt(URI.create("redis://127.0.0.1:" + silent.getLocalPort()))) {
      assertFailsPromptly(store, "127.0.0.1:" + silent.getLocalPort());
    }
  }

  @Test
  void acquire_serverStopped_failsThenRecoversWhenItIsBack() {
    try (RedisCounterStore store = storeAt(redis.uri())) {
      assertThat(store.acquire(HITS).join()).extracting(Usage::remaining).containsExactly(4L, 4L);
      redis.stop();
      try {
        assertFailsPromptly(store, redis.host() + ":" + redis.port());
      } finally {
        redis.start();
      }
      // The restarted server is empty, and has lost the script.
      assertThat(store.acquire(HITS).join()).extracting(Usage::remaining).containsExactly(4L, 4L);
      store.ping();
    }
  }

  @Test
  void acquire_afterClose_failsWithStoreException() {
    RedisCounterStore store = storeAt(redis.uri());
    store.close();
    assertFailsPromptly(store, redis.host() + ":" + redis.port());
  }

  /**
   * A master demoted to a replica refuses the fixed window's INCRBY while queuing it, so EXEC
   * aborts: the request fails with READONLY, a store state (which opens the breaker and looks at
   * the topology again), not with EXECABORT, which would read as one key's bad data.
   */
  @Test
  void acquire_fixedWindowOnAReadOnlyReplica_failsWithReadOnlyNotAsData() throws IOException {
    int nowhere;
    try (ServerSocket probe = new ServerSocket(0)) {
      nowhere = probe.getLocalPort();
    }
    try (RedisCounterStore store = storeAt(redis.uri());
        Jedis admin = redis.client()) {
      store.acquire(HITS).join();
      admin.replicaof("127.0.0.1", nowhere);
      try {
        CompletableFuture<List<Usage>> answer = store.acquire(HITS.subList(0, 1));
        assertThatThrownBy(answer::join)
            .cause()
            .isInstanceOf(StoreException.class)
            .isNotInstanceOf(StoreDataException.class)
            .hasMessageContaining("READONLY");
      } finally {
        admin.replicaofNoOne();
      }
    }
  }

  private static void assertFailsPromptly(RedisCounterStore store, String address) {
    long start = System.nanoTime();
    CompletableFuture<List<Usage>> future = store.acquire(HITS);
    assertThatThrownBy(future::join)
        .isInstanceOf(CompletionException.class)
        .cause()
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(address)
        .hasCauseInstanceOf(redis.clients.jedis.exceptions.JedisException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.plus(SLACK));

    assertThatThrownBy(store::ping)
        .isInstanceOf(StoreException.class)
        .hasMessageContaining(address);
  }
}
