package dev.sluice.store.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rules.Limit;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;

/**
 * One key of a batch-form {@code token_bucket.lua} call in {@link TokenBucketArithmeticFuzzTest},
 * with the Java twin's view of it: what it held, what each take answers when taken one by one, and
 * what it must hold (state and expiry) after the call. A hash under the key when {@code hash}: its
 * takes answer the script's {@code -1} marker and leave it as it was. Not thread-safe: one test.
 */
final class BatchedBucket {
  final String key;
  final Limit limit;
  final boolean hash;
  TokenBucketState state;
  String stored;
  long ttlMillis = -1;
  Response<String> storedNow;
  Response<Long> pttl;
  Response<Map<String, String>> hashNow;

  BatchedBucket(String key, Limit limit, boolean hash) {
    this.key = key;
    this.limit = limit;
    this.hash = hash;
  }

  void store(Jedis client, TokenBucketState before) {
    client.del(key);
    state = before;
    stored = TokenBucketArithmeticFuzzTest.stored(before);
    if (hash) {
      client.hset(key, "tokens", "1");
    } else if (before != null) {
      client.set(key, stored);
    }
  }

  List<Long> take(long hits, long nowMicros) {
    if (hash) {
      return List.of(-1L, 0L, 0L, 0L);
    }
    TokenBucketState.Take take =
        (state == null ? TokenBucketState.full(limit, nowMicros) : state)
            .take(limit, hits, nowMicros);
    if (!take.usage().overLimit() && hits > 0) {
      state = take.state();
      ttlMillis = take.ttlMillis();
    }
    return TokenBucketArithmeticFuzzTest.replyOf(take.usage());
  }

  void queueReads(Transaction transaction) {
    if (hash) {
      hashNow = transaction.hgetAll(key);
    } else {
      storedNow = transaction.get(key);
      pttl = transaction.pttl(key);
    }
  }

  /**
   * @param slackMillis how much shorter than computed the expiry may read ({@link
   *     TokenBucketArithmeticFuzzTest#execForSlackMillis})
   */
  void checkStored(long slackMillis) {
    if (hash) {
      assertThat(hashNow.get()).as("the hash at %s", key).isEqualTo(Map.of("tokens", "1"));
      return;
    }
    String now = storedNow.get();
    long expiry = pttl.get();
    if (ttlMillis < 0) {
      assertThat(now).as("untouched %s", key).isEqualTo(stored);
      assertThat(expiry).as("untouched expiry of %s", key).isEqualTo(stored == null ? -2 : -1);
    } else if (ttlMillis > slackMillis || now != null) {
      // As in check(): a bucket kept a millisecond or two may be gone even in the transaction.
      assertThat(TokenBucket.parse(key, now)).as("state of %s", key).isEqualTo(state);
      assertThat(expiry)
          .as("expiry of %s", key)
          .isBetween(Math.max(0, ttlMillis - slackMillis), ttlMillis);
    }
  }
}
