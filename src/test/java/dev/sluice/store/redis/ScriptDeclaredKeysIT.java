package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.Unit;
import dev.sluice.store.Charge;
import dev.sluice.store.CounterKey;
import dev.sluice.store.Hit;
import dev.sluice.store.Usage;
import dev.sluice.store.algorithm.ChargeScript;
import dev.sluice.store.algorithm.CountingAlgorithm;
import dev.sluice.store.algorithm.RedisBatch;
import dev.sluice.testing.RedisServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ExpiryOption;

/**
 * Every script touches only the keys it is given in KEYS, as the real Java callers build them. On a
 * cluster Redis routes a script by its declared keys alone; a key the script reads without
 * declaring it is not checked, so in a half-migrated slot the script can run on the importing node
 * behind ASKING and read nothing there (issue 9: the sliding window's two window keys and
 * charge.lua's fixed-window keys). Each script runs here behind a preamble that fails it when a
 * {@code redis.call} names a key outside KEYS: the scripts' own check, on a plain Redis.
 */
class ScriptDeclaredKeysIT {
  @RegisterExtension static final RedisServerExtension redis = new RedisServerExtension();

  /**
   * Shadows {@code redis} for the script below it: every keyed call (or pcall) must name a KEYS
   * entry.
   */
  private static final String CHECK =
      """
      local declared = {}
      for _, key in ipairs(KEYS) do declared[key] = true end
      local function checked(real)
        return function(command, ...)
          local key = ...
          if command ~= 'TIME' and not declared[key] then
            error('undeclared key: ' .. command .. ' ' .. tostring(key))
          end
          return real(command, ...)
        end
      end
      local redis = {call = checked(redis.call), pcall = checked(redis.pcall)}
      """;

  private final Jedis jedis = redis.client();
  private final CheckedBatch batch = new CheckedBatch(jedis);
  private final String unique = UUID.randomUUID().toString();

  @AfterEach
  void close() {
    jedis.close();
  }

  @Test
  void perHitScripts_everyAlgorithm_touchOnlyDeclaredKeys() {
    long now = System.currentTimeMillis();
    for (Algorithm algorithm : Algorithm.values()) {
      Limit limit = limit(algorithm, 2);
      Hit hit = new Hit(CounterKey.of("api", entries(), limit), limit, 1);
      for (int i = 0; i < 3; i++) { // counts, then refuses: every branch that writes
        Usage usage = CountingAlgorithm.of(algorithm).takeOnRedis(batch, hit, now).get();
        assertThat(usage.overLimit()).as("%s hit %d", algorithm, i).isEqualTo(i == 2);
      }
    }
    assertThat(batch.runs).as("the fixed window sends no script").isEqualTo(6);
  }

  @Test
  void chargeAndRefund_aListOfEveryAlgorithm_touchOnlyDeclaredKeys() {
    long now = System.currentTimeMillis();
    String tag = CounterKey.group("api", entries());
    List<Hit> hits = new ArrayList<>();
    for (Algorithm algorithm : Algorithm.values()) {
      Limit limit = limit(algorithm, 5);
      hits.add(new Hit(CounterKey.ofSeveral(tag, limit), limit, 2));
    }
    Charge.Group group = Charge.Group.of(tag, hits, Charge.Policy.TOGETHER, Charge.Vote.REGULAR);
    List<ChargeScript.Counted> counted = ChargeScript.queue(batch, List.of(group), now).get();
    assertThat(counted).extracting(ChargeScript.Counted::charged).containsOnly(true);

    List<ChargeScript.Refund> back = new ArrayList<>();
    for (int i = 0; i < hits.size(); i++) {
      back.add(new ChargeScript.Refund(hits.get(i), counted.get(i).key(), counted.get(i).index()));
    }
    assertThat(ChargeScript.refund(batch, back).get()).as("keys refunded").isEqualTo(3L);
    List<ChargeScript.Counted> again = ChargeScript.queue(batch, List.of(group), now).get();
    assertThat(again)
        .as("after the refund each limit holds 2 again, not 4")
        .extracting(c -> c.usage().remaining())
        .containsOnly(3L);
  }

  private List<Entry> entries() {
    return List.of(new Entry("user", "keys-" + unique));
  }

  private static Limit limit(Algorithm algorithm, long perDay) {
    return algorithm == Algorithm.TOKEN_BUCKET
        ? new Limit(perDay, Unit.DAY, algorithm, perDay)
        : Limit.of(perDay, Unit.DAY, algorithm);
  }

  /** Runs each command at once; each script behind {@link #CHECK}. */
  private static final class CheckedBatch implements RedisBatch {
    private final Jedis jedis;
    int runs;

    CheckedBatch(Jedis jedis) {
      this.jedis = jedis;
    }

    @Override
    public long expiryJitterMillis() {
      return 0;
    }

    @Override
    public String key(String counterKey) {
      return "k:{" + counterKey + "}";
    }

    @Override
    public Reply<Object> script(String resource, List<String> keys, List<String> args) {
      Object reply = jedis.eval(CHECK + source(resource), keys, args);
      runs++;
      return () -> reply;
    }

    @Override
    public Reply<Long> incrementExpiring(String key, long hits, long ttlMillis) {
      long count = jedis.incrBy(key, hits);
      jedis.pexpire(key, ttlMillis, ExpiryOption.NX);
      return () -> count;
    }

    @Override
    public Reply<String> get(String key) {
      String value = jedis.get(key);
      return () -> value;
    }

    @Override
    public Reply<Map<String, String>> hgetAll(String key) {
      Map<String, String> values = jedis.hgetAll(key);
      return () -> values;
    }

    @Override
    public Reply<Long> timeMicros() {
      List<String> time = jedis.time();
      long micros = Long.parseLong(time.get(0)) * 1_000_000L + Long.parseLong(time.get(1));
      return () -> micros;
    }

    @Override
    public void del(String key) {
      jedis.del(key);
    }

    private static String source(String resource) {
      try (InputStream in =
          ScriptDeclaredKeysIT.class.getClassLoader().getResourceAsStream(resource)) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
