package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RedisServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * {@code sliding_window.lua} answers exactly like {@code SlidingWindowEstimate}: the same hits at
 * the same instants of a fake clock, passed to the script as its time argument, give identical
 * decisions, remaining, reset and counts, across window boundaries and fractions.
 */
class SlidingWindowParityIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  /** Milliseconds to advance before each hit, and the hits: fills, refuses, rolls, skips. */
  private static final long[][] STEPS = {
    {0, 3},
    {137, 4},
    {1, 5},
    {211, 3},
    {650, 0},
    {90, 2},
    {333, 6},
    {1, 1},
    {415, 9},
    {77, 1},
    {999, 11},
    {120, 2},
    {2_500, 4},
    {13, 7},
    {980, 1},
    {5, 10},
    {1, 0}
  };

  private final FakeClock clock = FakeClock.atEpochSecond(1_700_000_000L);
  private final InMemoryCounterStore memory = new InMemoryCounterStore(clock, clock);
  private final Jedis jedis = redis.client();
  private final String script = source();
  private final String unique = UUID.randomUUID().toString();

  @AfterEach
  void close() {
    jedis.close();
    memory.close();
  }

  @Test
  void sameHitsAtSameInstants_identicalUsages() {
    java.util.Set<Boolean> decisions = new java.util.HashSet<>();
    for (Limit limit :
        List.of(sliding(10, Unit.SECOND), sliding(7, Unit.SECOND), sliding(1_000, Unit.MINUTE))) {
      String key = "sw|parity-" + limit.requestsPerUnit() + "-" + unique;
      for (int i = 0; i < STEPS.length; i++) {
        clock.advance(Duration.ofMillis(STEPS[i][0]));
        Hit hit = new Hit(key, limit, STEPS[i][1]);
        Usage expected = memory.acquire(List.of(hit)).join().get(0);
        assertThat(onRedis(hit)).as("%s step %d", limit, i).isEqualTo(expected);
        decisions.add(expected.overLimit());
      }
    }
    assertThat(decisions)
        .as("the steps both allow and refuse")
        .containsExactlyInAnyOrder(true, false);
  }

  @Test
  void countedHits_expireTwoWindowsAfterTheirWindowBegan() {
    Hit hit = new Hit("sw|ttl-" + unique, sliding(5, Unit.MINUTE), 1);
    onRedis(hit);
    long nowMillis = clock.millis();
    long index = Math.floorDiv(nowMillis, 60_000L);
    long ttl = jedis.pttl(hit.key());
    assertThat(ttl).isPositive().isLessThanOrEqualTo((index + 2) * 60_000L - nowMillis);
    assertThat(ttl).isGreaterThan(60_000L);
    assertThat(jedis.hgetAll(hit.key())).containsOnlyKeys(Long.toString(index));
  }

  /** One hash per counter, one field per window: a window that can no longer be previous goes. */
  @Test
  void windowsRolling_hashKeepsOnlyCurrentAndPrevious() {
    Hit hit = new Hit("sw|fields-" + unique, sliding(5, Unit.SECOND), 1);
    long first = Math.floorDiv(clock.millis(), 1_000L);
    for (int window = 0; window < 4; window++) {
      onRedis(hit);
      clock.advance(Duration.ofSeconds(1));
    }
    assertThat(jedis.hgetAll(hit.key()))
        .containsOnlyKeys(Long.toString(first + 2), Long.toString(first + 3));
    clock.advance(Duration.ofSeconds(1)); // skips a window: both older windows are two back or more
    onRedis(hit);
    assertThat(jedis.hgetAll(hit.key())).containsOnlyKeys(Long.toString(first + 5));
  }

  /**
   * One call of the batch-form script carrying several takes on two counters in mixed order, as a
   * lane batch sends them, with a key that holds a string among them: each take answers as the
   * memory store taking them one by one, and the string's take alone answers the {@code -1} marker
   * (the string is left as it was).
   */
  @Test
  void manyTakesInOneCall_answerAsTakenOneByOne() {
    Limit limit = sliding(10, Unit.SECOND);
    String first = "sw|batch-a-" + unique;
    String second = "sw|batch-b-" + unique;
    String string = "sw|batch-string-" + unique;
    jedis.set(string, "not a hash");
    for (long[] step : STEPS) {
      clock.advance(Duration.ofMillis(step[0]));
      List<Hit> takes =
          List.of(
              new Hit(first, limit, step[1]),
              new Hit(second, limit, 1),
              new Hit(first, limit, 2),
              new Hit(string, limit, 1),
              new Hit(second, limit, step[1]));
      List<String> keys = new ArrayList<>();
      List<String> args = new ArrayList<>(List.of(Long.toString(nowMicros())));
      List<Long> expected = new ArrayList<>();
      for (Hit take : takes) {
        keys.add(take.key());
        args.addAll(takeArgs(take));
        expected.addAll(
            take.key().equals(string)
                ? List.of(-1L, 0L, 0L, 0L)
                : replyOf(memory.acquire(List.of(take)).join().get(0)));
      }
      assertThat(jedis.eval(script, keys, args)).as("at %s", clock.instant()).isEqualTo(expected);
    }
    assertThat(jedis.get(string)).isEqualTo("not a hash");
  }

  private long nowMicros() {
    return clock.instant().getEpochSecond() * 1_000_000L + clock.instant().getNano() / 1000;
  }

  /** One take's ARGV after the batch script's time argument. */
  private static List<String> takeArgs(Hit hit) {
    return List.of(
        Long.toString(hit.limit().requestsPerUnit()),
        Long.toString(hit.limit().unit().seconds()),
        Long.toString(hit.hits()));
  }

  private static List<Long> replyOf(Usage usage) {
    return List.of(
        usage.overLimit() ? 0L : 1L,
        usage.remaining(),
        usage.untilReset().toNanos() / 1000,
        usage.countAfter());
  }

  private Usage onRedis(Hit hit) {
    List<String> args = new ArrayList<>(List.of(Long.toString(nowMicros())));
    args.addAll(takeArgs(hit));
    Object reply = jedis.eval(script, List.of(hit.key()), args);
    List<?> values = (List<?>) reply;
    return new Usage(
        (Long) values.get(0) == 0L,
        (Long) values.get(1),
        Duration.of((Long) values.get(2), ChronoUnit.MICROS),
        (Long) values.get(3));
  }

  private static Limit sliding(long perUnit, Unit unit) {
    return Limit.of(perUnit, unit, Algorithm.SLIDING_WINDOW);
  }

  private static String source() {
    try (InputStream in =
        SlidingWindowParityIT.class
            .getClassLoader()
            .getResourceAsStream("lua/sliding_window.lua")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
