package dev.sluice.store.redis;

import dev.sluice.store.algorithm.RedisBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * The commands of one request, queued on the pipeline of the lane it joined. Remembers its script
 * calls so that only those Redis answered NOSCRIPT are sent again. Confined to the lane's writer
 * thread, like the pipeline.
 */
final class PipelineBatch implements RedisBatch {
  private final Pipeline pipeline;
  private final UnaryOperator<String> keys;
  private final Map<String, LuaScript> scripts;
  private final List<LuaScript.Call> calls = new ArrayList<>(1);

  /**
   * @param keys a counter key's Redis key: the prefix and, on a cluster, a hash tag ({@link
   *     NodeRouting#key})
   */
  PipelineBatch(Pipeline pipeline, UnaryOperator<String> keys, Map<String, LuaScript> scripts) {
    this.pipeline = pipeline;
    this.keys = keys;
    this.scripts = scripts;
  }

  /** What the lane reads once the pipeline synced: {@code value}, after any NOSCRIPT re-send. */
  <T> PendingRequest.Replies<T> replies(Reply<T> value) {
    return new PendingRequest.Replies<T>() {
      @Override
      public boolean resendMissingScripts(Pipeline retry) {
        return PipelineBatch.this.resendMissingScripts(retry);
      }

      @Override
      public T value() {
        return value.get();
      }
    };
  }

  /** Re-sends with EVAL, on {@code retry}, each script call that got NOSCRIPT; true if any. */
  private boolean resendMissingScripts(Pipeline retry) {
    boolean resent = false;
    for (LuaScript.Call call : calls) {
      resent |= call.resendIfNoScript(retry);
    }
    return resent;
  }

  @Override
  public String key(String counterKey) {
    return keys.apply(counterKey);
  }

  @Override
  public Reply<Object> script(String resource, List<String> keys, List<String> args) {
    LuaScript script = scripts.get(resource);
    if (script == null) {
      throw new IllegalArgumentException("not a known script: " + resource);
    }
    LuaScript.Call call = script.send(pipeline, keys, args);
    calls.add(call);
    return call::reply;
  }

  @Override
  public Reply<String> get(String key) {
    return pipeline.get(key)::get;
  }

  @Override
  public Reply<List<String>> hmget(String key, String... fields) {
    return pipeline.hmget(key, fields)::get;
  }

  @Override
  public Reply<Long> timeMicros() {
    Response<List<String>> time = pipeline.time();
    return () -> {
      List<String> parts = time.get();
      return Long.parseLong(parts.get(0)) * 1_000_000L + Long.parseLong(parts.get(1));
    };
  }

  @Override
  public void del(String key) {
    pipeline.del(key);
  }
}
