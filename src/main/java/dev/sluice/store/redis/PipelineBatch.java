package dev.sluice.store.redis;

import dev.sluice.store.StoreException;
import dev.sluice.store.algorithm.RedisBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.args.Rawable;
import redis.clients.jedis.args.RawableFactory;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * The commands of one hit, queued on the pipeline of the lane its request joined. Remembers its
 * script calls so that only those Redis answered NOSCRIPT are sent again, and every keyed command's
 * reply so it can tell a hit that did not run at all (every keyed reply a redirect) from one that
 * did. When {@code asking}, each command goes behind {@code ASKING} (a node importing a slot runs
 * the one next command for it). Confined to the lane's writer thread, like the pipeline.
 */
final class PipelineBatch implements RedisBatch {
  private static final CommandObject<String> ASKING =
      new CommandObject<>(new CommandArguments(Protocol.Command.ASKING), BuilderFactory.STRING);
  private static final CommandObject<String> MULTI =
      new CommandObject<>(new CommandArguments(Protocol.Command.MULTI), BuilderFactory.STRING);
  private static final CommandObject<List<Object>> EXEC =
      new CommandObject<>(
          new CommandArguments(Protocol.Command.EXEC), BuilderFactory.RAW_OBJECT_LIST);
  private static final Rawable NX = RawableFactory.from("NX");

  private final Pipeline pipeline;
  private final Map<String, CoalescedScript> coalesced;
  private final UnaryOperator<String> keys;
  private final Map<String, LuaScript> scripts;
  private final boolean asking;
  private final LongSupplier expiryJitterMillis;
  private final List<LuaScript.Call> calls = new ArrayList<>(1);
  private final List<Reply<?>> keyed = new ArrayList<>(2);

  /**
   * @param keys a counter key's Redis key: the prefix and, on a cluster, a hash tag ({@link
   *     NodeRouting#key})
   */
  PipelineBatch(
      LanePipeline lane,
      UnaryOperator<String> keys,
      Map<String, LuaScript> scripts,
      Options options) {
    this.pipeline = lane.pipeline();
    this.coalesced = lane.coalesced();
    this.keys = keys;
    this.scripts = scripts;
    this.asking = options.asking();
    this.expiryJitterMillis = options.expiryJitterMillis();
  }

  /**
   * @param asking whether to send {@code ASKING} before each command (after an ASK redirect)
   * @param expiryJitterMillis draws {@link RedisBatch#expiryJitterMillis()}
   */
  record Options(boolean asking, LongSupplier expiryJitterMillis) {}

  @Override
  public long expiryJitterMillis() {
    return expiryJitterMillis.getAsLong();
  }

  /**
   * Once the pipeline synced (and any NOSCRIPT re-send too): {@code value}, or the redirect when
   * every keyed command was answered MOVED or ASK, or {@link HitReply.Again} when every one was
   * answered TRYAGAIN, meaning none of them ran.
   *
   * @throws StoreException when some commands ran and another was redirected: sending the hit again
   *     would apply the part that ran twice
   * @throws redis.clients.jedis.exceptions.JedisException an error reply, from {@code value}
   */
  <T> HitReply<T> outcome(Reply<T> value) {
    JedisRedirectionException redirect = null;
    JedisDataException tryAgain = null;
    boolean ran = false;
    for (Reply<?> reply : keyed) {
      try {
        reply.get();
        ran = true;
      } catch (JedisRedirectionException e) {
        redirect = e;
      } catch (JedisDataException e) {
        if (String.valueOf(e.getMessage()).startsWith("TRYAGAIN")) {
          tryAgain = e; // like a redirect, answered instead of running
        } else {
          ran = true; // conservatively: only a redirect or TRYAGAIN is known not to have run
        }
      }
    }
    if (tryAgain != null && redirect == null && !ran) {
      return new HitReply.Again<>(tryAgain);
    }
    if (tryAgain != null) {
      ran = true; // a mix: keep the conservative rule, fail rather than send twice
    }
    if (redirect == null) {
      return new HitReply.Done<>(value.get());
    }
    if (ran) {
      throw new StoreException(
          "redis cluster: a slot moved between the commands of one counter ("
              + redirect.getMessage()
              + "); not sent again because part of it ran");
    }
    return new HitReply.Redirected<>(redirect);
  }

  /** Re-sends with EVAL, on {@code retry}, each script call that got NOSCRIPT; true if any. */
  boolean resendMissingScripts(Pipeline retry) {
    boolean resent = false;
    for (LuaScript.Call call : calls) {
      if (asking && call.missing()) {
        retry.appendCommand(ASKING);
      }
      resent |= call.resendIfNoScript(retry);
    }
    return resent;
  }

  private <T> Reply<T> keyed(Response<T> response) {
    Reply<T> reply = response::get;
    keyed.add(reply);
    return reply;
  }

  private Pipeline next() {
    if (asking) {
      pipeline.appendCommand(ASKING);
    }
    return pipeline;
  }

  @Override
  public String key(String counterKey) {
    return keys.apply(counterKey);
  }

  /**
   * On a lane that combines this script's calls (one node), the call joins the batch's one combined
   * call ({@link CoalescedScript}), which the lane re-sends itself on NOSCRIPT; otherwise its own
   * EVALSHA. Never combined behind {@code ASKING}, which covers only the next command.
   */
  @Override
  public Reply<Object> script(String resource, List<String> keys, List<String> args) {
    CoalescedScript combined = asking ? null : coalesced.get(resource);
    if (combined != null) {
      Reply<Object> reply = combined.add(keys, args);
      keyed.add(reply);
      return reply;
    }
    LuaScript script = scripts.get(resource);
    if (script == null) {
      throw new IllegalArgumentException("not a known script: " + resource);
    }
    LuaScript.Call call = script.send(next(), keys, args);
    calls.add(call);
    Reply<Object> reply = call::reply;
    keyed.add(reply);
    return reply;
  }

  /**
   * {@code MULTI}, {@code INCRBY}, {@code PEXPIRE ... NX}, {@code EXEC}. The two queued commands'
   * replies ({@code QUEUED}, or a redirect given instead of queuing) count as the hit's keyed
   * replies, so a redirected hit is known not to have run: Redis then aborts the transaction. After
   * an ASK redirect one {@code ASKING} goes before {@code MULTI}: Redis keeps that flag for the
   * whole transaction, and an {@code ASKING} inside it would only be queued.
   */
  @Override
  public Reply<Long> incrementExpiring(String key, long hits, long ttlMillis) {
    next().appendCommand(MULTI);
    Reply<String> increment =
        keyed(
            pipeline.appendCommand(
                new CommandObject<>(
                    new CommandArguments(Protocol.Command.INCRBY).add(key).add(hits),
                    BuilderFactory.STRING)));
    Reply<String> expire =
        keyed(
            pipeline.appendCommand(
                new CommandObject<>(
                    new CommandArguments(Protocol.Command.PEXPIRE).add(key).add(ttlMillis).add(NX),
                    BuilderFactory.STRING)));
    Response<List<Object>> exec = pipeline.appendCommand(EXEC);
    return () -> {
      // A command refused while queuing (READONLY from a demoted master, OOM) made EXEC abort;
      // its error, not EXECABORT, says what is wrong with the store.
      increment.get();
      expire.get();
      return countOf(exec.get());
    };
  }

  /** The INCRBY result out of EXEC's {@code [count, expiry set]}. */
  private static long countOf(List<Object> exec) {
    if (exec == null || exec.size() != 2) {
      throw new StoreException("unexpected EXEC reply to INCRBY, PEXPIRE: " + exec);
    }
    Object count = exec.get(0);
    if (count instanceof JedisDataException failed) {
      throw failed; // e.g. the key holds no integer: as a script's error would
    }
    if (!(count instanceof Long value)) {
      throw new StoreException("unexpected INCRBY reply in EXEC: " + count);
    }
    return value;
  }

  @Override
  public Reply<String> get(String key) {
    return keyed(next().get(key));
  }

  @Override
  public Reply<Map<String, String>> hgetAll(String key) {
    return keyed(next().hgetAll(key));
  }

  @Override
  public Reply<Long> timeMicros() {
    Response<List<String>> time = pipeline.time(); // no key: any node runs it, never redirected
    return () -> {
      List<String> parts = time.get();
      return Long.parseLong(parts.get(0)) * 1_000_000L + Long.parseLong(parts.get(1));
    };
  }

  @Override
  public void del(String key) {
    keyed(next().del(key));
  }
}
