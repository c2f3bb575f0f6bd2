package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Charge;
import dev.sluice.store.CounterKey;
import dev.sluice.store.CounterStore;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.Hammer;
import dev.sluice.testing.RedisClusterExtension;
import dev.sluice.threads.DaemonThreadFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Several limits on one descriptor and {@code charge_denied: false} on a real 3-master Redis
 * Cluster: a list runs as one script in its tag's slot; descriptors on different masters are
 * charged, then refunded when the request was refused, and never over-admit under 32 threads on two
 * store instances.
 */
class ChargeClusterIT {
  @RegisterExtension static final RedisClusterExtension cluster = new RedisClusterExtension();

  private final List<RedisCounterStore> opened = new ArrayList<>();
  private final String unique = UUID.randomUUID().toString();

  @AfterEach
  void close() {
    opened.forEach(RedisCounterStore::close);
  }

  /**
   * The stores' clock, stopped at the test's start: fixed windows count in the window holding that
   * instant, so no window boundary falls between the hits a test counts.
   */
  private final FakeClock startClock = new FakeClock(Instant.now());

  private RedisCounterStore open() {
    RedisEndpoint endpoint = RedisEndpoint.parse("redis-cluster://" + cluster.seeds());
    RedisCounterStore store =
        new RedisCounterStore(
                RedisConfig.builder(endpoint)
                    .timeout(Duration.ofSeconds(2))
                    .connections(2)
                    .keyPrefix("c:")
                    .build(),
                startClock,
                new DaemonThreadFactory("sluice-redis-lane"))
            .start();
    opened.add(store);
    return store;
  }

  private static Limit fixed(long perDay) {
    return Limit.of(perDay, Unit.DAY, Algorithm.FIXED_WINDOW);
  }

  /** Two counter keys of {@code name} whose slots belong to different masters. */
  private List<String> onTwoMasters(String name) {
    String first = name + "-a-" + unique;
    for (int i = 0; ; i++) {
      String other = name + "-b" + i + "-" + unique;
      if (!masterOf(first).equals(masterOf(other))) {
        return List.of(first, other);
      }
    }
  }

  private static Object masterOf(String counterKey) {
    return cluster.masterOf(RedisClusterExtension.slot("c:{" + counterKey + "}"));
  }

  private static Charge.Group withRequest(Hit hit) {
    return Charge.Group.of(
        hit.key(), List.of(hit), Charge.Policy.WITH_REQUEST, Charge.Vote.REGULAR);
  }

  private static boolean allowed(List<Usage> usages) {
    return usages.stream().noneMatch(Usage::overLimit);
  }

  private static long held(CounterStore store, Hit hit) {
    return hit.limit().capacity() - store.inspect(hit).join().usage().remaining();
  }

  @Test
  void severalLimits_oneScriptInTheTagsSlot_allOrNothing() {
    RedisCounterStore store = open();
    String tag = CounterKey.group("api", List.of(new Entry("user", unique)));
    List<Hit> hits =
        List.of(
            new Hit(CounterKey.ofSeveral(tag, fixed(3)), fixed(3), 1),
            new Hit(
                CounterKey.ofSeveral(tag, Limit.of(10, Unit.HOUR, Algorithm.FIXED_WINDOW)),
                Limit.of(10, Unit.HOUR, Algorithm.FIXED_WINDOW),
                1));
    Charge charge =
        Charge.of(List.of(Charge.Group.of(tag, hits, Charge.Policy.TOGETHER, Charge.Vote.REGULAR)));
    for (int i = 0; i < 3; i++) {
      assertThat(allowed(store.charge(charge).future().join())).isTrue();
    }
    List<Usage> refused = store.charge(charge).future().join();
    assertThat(refused.get(0).overLimit()).isTrue();
    assertThat(refused.get(1).remaining()).as("the hour is not charged").isEqualTo(7);
  }

  @Test
  void withRequest_acrossMasters_refusedRequestIsRefunded() {
    RedisCounterStore store = open();
    List<String> keys = onTwoMasters("refund");
    Hit strict = new Hit(keys.get(0), fixed(10), 1);
    Hit blocked = new Hit(keys.get(1), fixed(0), 1);
    Charge charge = Charge.of(List.of(withRequest(strict), withRequest(blocked)));
    for (int i = 0; i < 5; i++) {
      List<Usage> usages = store.charge(charge).future().join();
      assertThat(usages.get(0).overLimit()).isFalse();
      assertThat(usages.get(0).remaining()).as("reported as given back").isEqualTo(10);
      assertThat(usages.get(1).overLimit()).isTrue();
    }
    assertThat(held(store, strict)).as("every charge was refunded").isZero();
  }

  @Test
  void withRequest_acrossMasters_concurrent_neverOverAdmitsAndCountersHoldTheAllowedHits()
      throws Exception {
    CounterStore[] instances = {open(), open()};
    List<String> keys = onTwoMasters("race");
    Hit wide = new Hit(keys.get(0), fixed(100), 1);
    Hit narrow = new Hit(keys.get(1), Limit.of(50, Unit.DAY, Algorithm.SLIDING_WINDOW), 1);
    Charge charge = Charge.of(List.of(withRequest(wide), withRequest(narrow)));
    int allowed =
        Hammer.countAllowed(
            32, 20, t -> () -> allowed(instances[t % 2].charge(charge).future().join()));
    // False refusals may leave it below 50 (a refund not yet applied); never above.
    assertThat(allowed).isPositive().isLessThanOrEqualTo(50);
    assertThat(held(instances[0], wide)).isEqualTo(allowed);
    assertThat(held(instances[0], narrow)).isEqualTo(allowed);
  }
}
