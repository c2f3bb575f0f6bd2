package dev.sluice.store.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Usage;
import dev.sluice.testing.RedisServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;

/**
 * The token bucket's two copies agree on any input: {@link TokenBucketState#take} (the Java twin,
 * tested on a fake clock) and {@code lua/token_bucket.lua} on a real {@code redis-server}. Each
 * input is a limit (burst, rate, unit), a stored bucket (or none), an instant and the hits; the
 * script is sent with that instant as its optional time argument, so both copies compute at the
 * same microsecond. They must agree on the decision, the whole tokens, the reset, the count, the
 * stored fractional tokens (bit for bit) and the expiry.
 *
 * <p>{@code mvn verify} replays the corpus under {@code
 * src/test/resources/dev/sluice/store/algorithm/TokenBucketArithmeticFuzzTestInputs/} (the
 * fuzz-corpus execution, which needs {@code redis-server} on PATH like every Redis test); {@code
 * JAZZER_FUZZ=1 mvn -P fuzz -Dtest=TokenBucketArithmeticFuzzTest test} fuzzes.
 */
class TokenBucketArithmeticFuzzTest {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  private static final String KEY = "tb|fuzz";
  private static final String SCRIPT = resource("lua/token_bucket.lua");
  private static final long NOW_BASE = 1_700_000_000_000_000L;
  private static final long TEN_YEARS_MICROS = 10L * Unit.YEAR.seconds() * 1_000_000L;
  private static final long SHORT_TTL_MILLIS = 5;
  private static Jedis jedis;

  @AfterAll
  static void closeClient() {
    if (jedis != null) {
      jedis.close();
    }
  }

  @FuzzTest(maxDuration = "5m")
  void javaTwinAndScript_agreeOnEveryTake(FuzzedDataProvider data) {
    Unit unit = data.pickValue(Unit.values());
    long burst = data.consumeLong(0, Limit.MAX_UINT32);
    long rate = data.consumeLong(0, Limit.MAX_UINT32);
    Limit limit = new Limit(rate, unit, Algorithm.TOKEN_BUCKET, burst);
    long hits = data.consumeLong(0, Limit.MAX_UINT32);
    long nowMicros = NOW_BASE + data.consumeLong(0, TEN_YEARS_MICROS);
    TokenBucketState before;
    if (data.consumeBoolean()) {
      double fraction = data.consumeProbabilityDouble();
      long elapsed = data.consumeLong(-1_000_000L, TEN_YEARS_MICROS);
      before = new TokenBucketState(burst * fraction, nowMicros - elapsed);
    } else {
      before = null;
    }

    TokenBucketState.Take expected =
        (before == null ? TokenBucketState.full(limit, nowMicros) : before)
            .take(limit, hits, nowMicros);
    Ran ran = runScript(limit, hits, nowMicros, before);
    List<Long> reply = ran.reply();
    Map<String, String> stored = ran.stored();
    long pttl = ran.pttl();

    String input = limit + " hits " + hits + " at " + nowMicros + " from " + before;
    Usage usage = expected.usage();
    assertThat(reply)
        .as("{allowed, tokens, reset, count} for %s", input)
        .containsExactly(
            usage.overLimit() ? 0L : 1L,
            usage.remaining(),
            usage.untilReset().getSeconds() * 1_000_000L + usage.untilReset().getNano() / 1000,
            usage.countAfter());
    // A bucket kept for a millisecond or two may be gone already even inside the transaction
    // (Redis 7.0 takes the time per command); everything longer must be there, to the millisecond.
    long ttl = expected.ttlMillis();
    if (ttl <= SHORT_TTL_MILLIS && stored.isEmpty()) {
      assertThat(pttl).as("expiry for %s", input).isIn(-2L, 0L);
      return;
    }
    assertThat(pttl).as("expiry for %s", input).isBetween(Math.max(0, ttl - SHORT_TTL_MILLIS), ttl);
    assertThat(Double.parseDouble(stored.get("tokens")))
        .as("stored tokens for %s", input)
        .isEqualTo(expected.state().tokens());
    assertThat(Long.parseLong(stored.get("at"))).as("stored at for %s", input).isEqualTo(nowMicros);
  }

  /** The script's reply and the bucket it left, read in the same transaction. */
  private record Ran(List<Long> reply, Map<String, String> stored, long pttl) {}

  private static Ran runScript(Limit limit, long hits, long nowMicros, TokenBucketState before) {
    Jedis client = client();
    client.del(KEY);
    if (before != null) {
      client.hset(
          KEY,
          Map.of(
              "tokens", Double.toString(before.tokens()), "at", Long.toString(before.atMicros())));
    }
    List<String> args =
        List.of(
            Long.toString(limit.burst()),
            Long.toString(limit.requestsPerUnit()),
            Long.toString(TokenBucketState.windowSeconds(limit, nowMicros / 1000)),
            Long.toString(hits),
            Long.toString(nowMicros));
    Transaction transaction = client.multi();
    Response<Object> reply = transaction.eval(SCRIPT, List.of(KEY), args);
    Response<Map<String, String>> stored = transaction.hgetAll(KEY);
    Response<Long> pttl = transaction.pttl(KEY);
    transaction.exec();
    assertThat(reply.get()).isInstanceOf(List.class);
    List<Long> values = ((List<?>) reply.get()).stream().map(Long.class::cast).toList();
    return new Ran(values, stored.get(), pttl.get());
  }

  private static Jedis client() {
    if (jedis == null) {
      jedis = redis.client();
    }
    return jedis;
  }

  private static String resource(String name) {
    try (InputStream in =
        TokenBucketArithmeticFuzzTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
