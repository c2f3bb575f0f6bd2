package dev.sluice.store.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.IntStream;
import redis.clients.jedis.BuilderFactory;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.args.Rawable;
import redis.clients.jedis.args.RawableFactory;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script from {@code src/main/resources}, sent by its SHA-1 with EVALSHA. When Redis has lost
 * the script (restart, failover, SCRIPT FLUSH) only the entry that got NOSCRIPT is sent again with
 * EVAL, never the whole pipeline: re-sending it would apply its other commands twice, such as a
 * fixed window's INCRBY beside it. Immutable and thread-safe.
 */
final class LuaScript {
  private static final CommandObjects COMMANDS = new CommandObjects();

  /** Key counts as sent, encoded once: the scripts take one to a few keys. */
  private static final List<Rawable> KEY_COUNTS =
      IntStream.rangeClosed(0, 8).mapToObj(RawableFactory::from).toList();

  private final String resource;
  private final String source;
  private final String sha1;
  private final Rawable sha1Argument;

  private LuaScript(String resource, String source) {
    this.resource = resource;
    this.source = source;
    this.sha1 = sha1Hex(source);
    this.sha1Argument = RawableFactory.from(sha1.getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * Reads a script from the class path, e.g. {@code lua/token_bucket.lua}.
   *
   * @throws IllegalStateException when the resource is missing (a packaging bug)
   */
  static LuaScript fromResource(String resource) {
    try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("script not on the class path: " + resource);
      }
      return new LuaScript(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read script " + resource, e);
    }
  }

  String resource() {
    return resource;
  }

  /** The lowercase hex SHA-1 of the script text: the name Redis caches it under. */
  String sha1() {
    return sha1;
  }

  /**
   * Caches the script in Redis (SCRIPT LOAD) over {@code connection}, so the first EVALSHA does not
   * miss.
   *
   * @throws redis.clients.jedis.exceptions.JedisException when Redis refuses or cannot answer
   */
  void scriptLoad(Connection connection) {
    String loaded = connection.executeCommand(COMMANDS.scriptLoad(source));
    if (!sha1.equals(loaded)) {
      throw new IllegalStateException(
          "redis cached " + resource + " as " + loaded + ", expected " + sha1);
    }
  }

  /**
   * Queues EVALSHA in {@code pipeline}. Once the pipeline has synced, call {@link
   * Call#resendIfNoScript} and, after syncing any resent calls, {@link Call#reply}.
   */
  Call send(Pipeline pipeline, List<String> keys, List<String> args) {
    return new Call(keys, args, pipeline.appendCommand(evalsha(keys, args)));
  }

  /**
   * What Jedis's {@code evalsha} builds, and decoded the same way, but with the SHA-1 and the key
   * count encoded once rather than on every call, and without the key list Jedis keeps for its own
   * cluster routing (this store routes by itself).
   */
  private CommandObject<Object> evalsha(List<String> keys, List<String> args) {
    int keyCount = keys.size();
    CommandArguments command =
        new CommandArguments(Protocol.Command.EVALSHA)
            .add(sha1Argument)
            .add(
                keyCount < KEY_COUNTS.size()
                    ? KEY_COUNTS.get(keyCount)
                    : RawableFactory.from(keyCount));
    for (String key : keys) {
      command.add(key);
    }
    for (String arg : args) {
      command.add(arg);
    }
    return new CommandObject<>(command, BuilderFactory.AGGRESSIVE_ENCODED_OBJECT);
  }

  /**
   * One queued run of the script, remembering its arguments so it can be re-sent alone. Confined to
   * the thread that owns the pipeline.
   */
  final class Call {
    private final List<String> keys;
    private final List<String> args;
    private Response<Object> pending;

    private Call(List<String> keys, List<String> args, Response<Object> pending) {
      this.keys = keys;
      this.args = args;
      this.pending = pending;
    }

    /**
     * When Redis answered NOSCRIPT, queues this call again with EVAL on {@code retry} (which also
     * caches the script for the next EVALSHA) and returns true; the caller syncs {@code retry}
     * before reading {@link #reply}. Other replies, errors included, are left for {@link #reply}.
     */
    /** Whether Redis answered NOSCRIPT, so {@link #resendIfNoScript} will send it again. */
    boolean missing() {
      try {
        pending.get();
        return false;
      } catch (JedisNoScriptException e) {
        return true;
      } catch (JedisDataException e) {
        return false;
      }
    }

    boolean resendIfNoScript(Pipeline retry) {
      try {
        pending.get();
        return false;
      } catch (JedisNoScriptException e) {
        pending = retry.eval(source, keys, args);
        return true;
      } catch (JedisDataException e) {
        return false;
      }
    }

    /**
     * The script's reply.
     *
     * @throws redis.clients.jedis.exceptions.JedisException when Redis failed or the script erred
     */
    Object reply() {
      return pending.get();
    }
  }

  private static String sha1Hex(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-1");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-1", e);
    }
  }
}
