package dev.sluice.store.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPubSub;

/**
 * Listens to every sentinel's events for one master, so the store stops writing to a master
 * <em>before</em> its replica is promoted, not after: a sentinel announces {@code +selected-slave}
 * about one timer tick (100 ms) before it sends {@code REPLICAOF NO ONE}, and {@code
 * +switch-master} only once the promotion is done, up to a second or more later. Writes the old
 * master takes in that gap are lost when it becomes a replica (measured: 42,961 of 85,997 writes in
 * a {@code SENTINEL FAILOVER} under 16 threads), so a master being failed over is better answered
 * by the failure mode. Between {@code +selected-slave} and {@code +switch-master} (or an abort, or
 * {@link #FAILOVER_CAP_NANOS} at most) {@link #failingOver} is true; {@code +switch-master} also
 * names the new master at once, without waiting for Jedis's own listener.
 *
 * <p>Threads: one per sentinel, made by the factory the store was given, blocked in {@code
 * PSUBSCRIBE}; reconnects after a second when a sentinel goes away. Thread-safe.
 */
final class SentinelEvents implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SentinelEvents.class);

  /** Longest a failover keeps the master out of use without {@code +switch-master} or an abort. */
  static final long FAILOVER_CAP_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final String masterName;
  private final List<HostAndPort> sentinels;
  private final JedisClientConfig config;
  private final ThreadFactory threads;
  private final AtomicLong failoverSince = new AtomicLong(); // 0: none under way
  private final Consumer<HostAndPort> onSwitch;
  private final List<Listener> listeners = new ArrayList<>(); // guarded by this
  private volatile boolean closed;

  SentinelEvents(
      String masterName,
      List<HostAndPort> sentinels,
      JedisClientConfig config,
      ThreadFactory threads,
      Consumer<HostAndPort> onSwitch) {
    this.onSwitch = onSwitch;
    this.masterName = masterName;
    this.sentinels = List.copyOf(sentinels);
    this.config = config;
    this.threads = threads;
  }

  /** Starts one listener thread per sentinel. Once. */
  synchronized void start() {
    for (HostAndPort sentinel : sentinels) {
      Listener listener = new Listener(sentinel);
      listeners.add(listener);
      threads.newThread(listener).start();
    }
  }

  /** Whether a sentinel has selected a replica to promote and the switch is not done yet. */
  boolean failingOver() {
    long since = failoverSince.get();
    return since != 0 && System.nanoTime() - since < FAILOVER_CAP_NANOS;
  }

  /** One event, as a sentinel publishes it on channel {@code +name}. */
  void onEvent(String channel, String message) {
    String[] words = message.split(" ");
    switch (channel) {
      case "+selected-slave", "+failover-state-send-slaveof-noone" -> {
        // "slave <ip:port> <ip> <port> @ <master> <ip> <port>"
        if (about(words) && failoverSince.compareAndSet(0, System.nanoTime())) {
          log.warn(
              "redis: sentinels fail master '{}' over to {}; answering by the failure mode until"
                  + " the switch",
              masterName,
              words.length > 1 ? words[1] : "?");
        }
      }
      case "+switch-master" -> {
        // "<master> <old ip> <old port> <new ip> <new port>"
        if (words.length == 5 && words[0].equals(masterName)) {
          onSwitch.accept(new HostAndPort(words[3], Integer.parseInt(words[4])));
          failoverSince.set(0);
        }
      }
      case "-failover-abort-not-elected",
          "-failover-abort-no-good-slave",
          "-failover-abort-slave-timeout",
          "+failover-end-for-timeout" -> {
        if (about(words)) {
          failoverSince.set(0);
        }
      }
      default -> {}
    }
  }

  /** Whether an instance event ("... @ name ip port", or "master name ip port") is ours. */
  private boolean about(String[] words) {
    for (int i = 0; i + 1 < words.length; i++) {
      if ((words[i].equals("@") || words[i].equals("master")) && words[i + 1].equals(masterName)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public synchronized void close() {
    closed = true;
    listeners.forEach(Listener::stop);
  }

  /** Subscribes to one sentinel until closed, reconnecting after a second when it fails. */
  private final class Listener extends JedisPubSub implements Runnable {
    private final HostAndPort sentinel;
    private volatile Jedis jedis;

    Listener(HostAndPort sentinel) {
      this.sentinel = sentinel;
    }

    @Override
    public void run() {
      while (!closed) {
        try (Jedis connection = new Jedis(sentinel, config)) {
          jedis = connection;
          if (!closed) {
            connection.psubscribe(this, "*");
          }
        } catch (RuntimeException e) {
          log.debug("redis: sentinel {} event listener: {}", sentinel, e.getMessage());
        }
        try {
          TimeUnit.SECONDS.sleep(1); // a sentinel that is down: try again, not in a spin
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    @Override
    public void onPMessage(String pattern, String channel, String message) {
      onEvent(channel, message);
    }

    void stop() {
      try {
        if (isSubscribed()) {
          punsubscribe();
        }
        Jedis connection = jedis;
        if (connection != null) {
          connection.disconnect();
        }
      } catch (RuntimeException e) {
        log.debug("redis: stopping the listener of sentinel {}", sentinel, e);
      }
    }
  }
}
