package dev.sluice.store.redis;

import dev.sluice.config.RedisConfig;
import dev.sluice.store.Hit;
import dev.sluice.store.StoreDataException;
import dev.sluice.store.StoreException;
import dev.sluice.store.algorithm.RedisBatch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Pipeline;

/**
 * Sends one request's hits to the nodes that hold them, one pipelined round trip per node, all at
 * once, and follows the redirects a cluster answers while slots move: on {@code MOVED} the hits go
 * again to the node named in the reply (and the slot map is fixed at once and refreshed soon), on
 * {@code ASK} they go to the named node behind {@code ASKING}, in the same pipeline, so one more
 * round trip. At most {@link #MAX_REDIRECTS} hops, and none once the request has used up its answer
 * time; then the request fails (answered by the failure mode). A multi-key script (a {@code
 * rate_limits} list) answered {@code TRYAGAIN}, because its slot is being migrated and its keys are
 * on both nodes, goes to the same node again every {@link #TRY_AGAIN_PAUSE_MILLIS} ms within the
 * answer time: it did not run either.
 *
 * <p>Answer time: every {@link #send} is answered within {@link #ANSWER_TIMEOUTS} times the store's
 * timeout, enforced here ({@link AnswerDeadlines}): failed with {@link StoreException} at that
 * point (or up to an eighth of it later) whatever the lanes are doing (a reply that arrives later
 * changes nothing more). Two timeouts because the timeout runs from when a pipeline is written
 * (issue 11.12: time spent queued must not fail a call on a busy machine), so a request may first
 * wait for the round trip ahead of it on its connection, itself bounded by the timeout, and then
 * have its own. Without this bound a request could also reconnect (connect and handshake, each
 * bounded by the timeout) or follow a redirect after that, and a failover test saw answers after 2
 * s with a 1 s timeout.
 *
 * <p>Why following is exact: Redis answers {@code MOVED} or {@code ASK} <em>instead of</em> running
 * a command (the node checks the key's slot before executing), so a redirected INCRBY or script has
 * not been applied and sending it to the target applies it once. Only a hit whose every keyed
 * command was redirected is sent again; a hit of which one command ran and another was redirected
 * (a slot moving between two commands of one pipeline) fails instead, as does any other error,
 * because part of it ran. A lost or timed-out round trip is never retried.
 *
 * <p>Thread-safety: {@link #send} from any thread; redirects are followed on the lane thread that
 * read the redirect (submitting to another lane never blocks).
 *
 * <p>Cost: a request answered on its first node takes no stage between the lane and the returned
 * future (the lane's reply completes it directly) and no timer of its own; the redirect and merge
 * machinery is built only for requests that need it. Each stage or timer was a few hundred
 * nanoseconds of the lane thread's, which answers every request of a batch in turn.
 */
final class HitDispatch {
  /** Redirect hops one request may follow: a stale map (MOVED) then a migrating slot (ASK). */
  static final int MAX_REDIRECTS = 3;

  /**
   * How long a hit answered TRYAGAIN waits before it goes to the same node again: Redis answers so
   * while a migrating slot's keys are split between two nodes, until the next MIGRATE batch.
   */
  static final long TRY_AGAIN_PAUSE_MILLIS = 10;

  /** A request's answer time, in store timeouts: its own round trip and the one ahead of it. */
  static final int ANSWER_TIMEOUTS = 2;

  private final NodeRouting routing;
  private final String keyPrefix;
  private final Map<String, LuaScript> scripts;
  private final long answerNanos;
  private final AnswerDeadlines deadlines;
  private final UnaryOperator<String> keys;
  private final PipelineBatch.Options directOptions;
  private final PipelineBatch.Options askingOptions;

  /** The commands one hit sends, and how to read their replies, on one node's pipeline. */
  @FunctionalInterface
  interface Commands<T> {
    RedisBatch.Reply<T> queue(RedisBatch batch, Hit hit);
  }

  /**
   * @param settings the key prefix, the timeout and the expiration jitter
   */
  HitDispatch(NodeRouting routing, Map<String, LuaScript> scripts, RedisConfig settings) {
    this.routing = routing;
    this.keyPrefix = settings.keyPrefix();
    this.scripts = scripts;
    this.answerNanos = settings.timeout().toNanos() * ANSWER_TIMEOUTS;
    this.deadlines =
        new AnswerDeadlines(answerNanos, this::late, AnswerDeadlines.Timer.JDK, System::nanoTime);
    this.keys = counterKey -> routing.key(keyPrefix, counterKey);
    long jitterMillis = settings.expirationJitter().toMillis();
    // Off is a constant, so no random number is drawn per counter when there is no jitter.
    LongSupplier expiryJitterMillis =
        jitterMillis == 0 ? () -> 0 : () -> ThreadLocalRandom.current().nextLong(jitterMillis + 1);
    this.directOptions = new PipelineBatch.Options(false, expiryJitterMillis);
    this.askingOptions = new PipelineBatch.Options(true, expiryJitterMillis);
  }

  /**
   * Sends every hit to its node and answers in the hits' order.
   *
   * @return fails with {@link StoreException} when a node cannot answer or redirects too often
   */
  <T> CompletableFuture<List<T>> send(List<Hit> hits, Commands<T> commands) {
    Attempt attempt = new Attempt(0, false, System.nanoTime() + answerNanos);
    CompletableFuture<List<T>> answer = route(hits, commands, attempt);
    if (!answer.isDone()) {
      deadlines.watch(answer);
    }
    return answer;
  }

  private <T> CompletableFuture<List<T>> route(
      List<Hit> hits, Commands<T> commands, Attempt attempt) {
    List<NodeRouting.Route> routes;
    try {
      routes = routing.route(hits, keyPrefix);
    } catch (StoreException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (routes.size() == 1) {
      return sendTo(routes.get(0).lane(), hits, commands, attempt);
    }
    List<List<Integer>> positions = new ArrayList<>(routes.size());
    List<CompletableFuture<List<T>>> parts = new ArrayList<>(routes.size());
    for (NodeRouting.Route route : routes) {
      positions.add(route.positions());
      parts.add(sendTo(route.lane(), pick(hits, route.positions()), commands, attempt));
    }
    return merge(hits.size(), positions, parts);
  }

  /** The failure of a request whose answer time ran out. */
  private StoreException late() {
    return new StoreException(
        "redis: no answer within "
            + TimeUnit.NANOSECONDS.toMillis(answerNanos)
            + " ms ("
            + ANSWER_TIMEOUTS
            + " x --redis-timeout); not sent again");
  }

  /** The hits' values, completed by the lane's reply directly when none was redirected. */
  private <T> CompletableFuture<List<T>> sendTo(
      PipelineLane lane, List<Hit> hits, Commands<T> commands, Attempt attempt) {
    CompletableFuture<List<T>> answer = new CompletableFuture<>();
    lane.<List<HitReply<T>>>submit(
        hits.size(),
        lanePipeline -> queue(lanePipeline, hits, commands, attempt.asking()),
        (replies, failure) -> {
          if (failure != null) {
            if (!(failure instanceof StoreDataException)) {
              routing.stale(); // a node may be down or demoted: look at the topology again
            }
            answer.completeExceptionally(failure);
            return;
          }
          try {
            List<T> values = doneValues(replies);
            if (values != null) {
              answer.complete(values);
            } else {
              relay(follow(lane, hits, replies, commands, attempt), answer);
            }
          } catch (RuntimeException e) {
            answer.completeExceptionally(e); // the lane's answer must not throw
          }
        });
    return answer;
  }

  /** The values when every hit ran (no redirect, no TRYAGAIN); null otherwise. */
  private static <T> List<T> doneValues(List<HitReply<T>> replies) {
    if (replies.size() == 1) {
      return replies.get(0) instanceof HitReply.Done<T> done
          ? Collections.singletonList(done.value())
          : null;
    }
    List<T> values = new ArrayList<>(replies.size());
    for (HitReply<T> reply : replies) {
      if (!(reply instanceof HitReply.Done<T> done)) {
        return null;
      }
      values.add(done.value());
    }
    return Collections.unmodifiableList(values);
  }

  /** Completes {@code to} as {@code from} completes, with the failure itself, not wrapped. */
  private static <V> void relay(CompletableFuture<V> from, CompletableFuture<V> to) {
    from.whenComplete(
        (value, failure) -> {
          if (failure == null) {
            to.complete(value);
          } else {
            to.completeExceptionally(unwrapped(failure));
          }
        });
  }

  private static Throwable unwrapped(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /** The values, after sending every redirected hit on to where Redis said it lives. */
  private <T> CompletableFuture<List<T>> follow(
      PipelineLane from,
      List<Hit> hits,
      List<HitReply<T>> replies,
      Commands<T> commands,
      Attempt attempt) {
    List<T> values = new ArrayList<>(Collections.nCopies(hits.size(), null));
    Map<Hop, List<Integer>> hops = new LinkedHashMap<>();
    Map<Hop, HitReply.Redirected<T>> firstReply = new LinkedHashMap<>();
    List<Integer> done = new ArrayList<>();
    List<Integer> again = new ArrayList<>();
    String againReply = "";
    for (int i = 0; i < replies.size(); i++) {
      HitReply<T> reply = replies.get(i);
      if (reply instanceof HitReply.Done<T> answered) {
        values.set(i, answered.value());
        done.add(i);
      } else if (reply instanceof HitReply.Again<T> tryAgain) {
        again.add(i);
        againReply = tryAgain.reply().getMessage();
      } else if (reply instanceof HitReply.Redirected<T> redirected) {
        Hop hop = new Hop(redirected.target(), redirected.ask());
        hops.computeIfAbsent(hop, h -> new ArrayList<>()).add(i);
        firstReply.putIfAbsent(hop, redirected);
      }
    }
    if (hops.isEmpty() && again.isEmpty()) {
      return CompletableFuture.completedFuture(Collections.unmodifiableList(values));
    }
    String any =
        hops.isEmpty() ? againReply : firstReply.values().iterator().next().reply().getMessage();
    if (!attempt.mayFollow()) {
      return CompletableFuture.failedFuture(
          new StoreException(
              "redis cluster: still redirected after "
                  + attempt.redirects()
                  + " hops or past the answer time ("
                  + any
                  + "); not sent again"));
    }
    List<List<Integer>> positions = new ArrayList<>(hops.size() + 2);
    List<CompletableFuture<List<T>>> parts = new ArrayList<>(hops.size() + 2);
    if (!again.isEmpty()) {
      // The same node, the same ASKING, after a pause; bounded by the answer time, not the hops.
      List<Hit> retried = pick(hits, again);
      positions.add(again);
      parts.add(
          CompletableFuture.runAsync(
                  () -> {},
                  // Run on the delay thread: the default, the common pool, starts a thread per
                  // task on fewer than 3 CPUs.
                  CompletableFuture.delayedExecutor(
                      TRY_AGAIN_PAUSE_MILLIS, TimeUnit.MILLISECONDS, Runnable::run))
              .thenCompose(paused -> sendTo(from, retried, commands, attempt)));
    }
    for (Map.Entry<Hop, List<Integer>> hop : hops.entrySet()) {
      PipelineLane lane;
      try {
        lane = routing.redirect(firstReply.get(hop.getKey()).reply());
      } catch (StoreException e) {
        return CompletableFuture.failedFuture(e);
      }
      positions.add(hop.getValue());
      parts.add(
          sendTo(lane, pick(hits, hop.getValue()), commands, attempt.next(hop.getKey().ask())));
    }
    positions.add(done);
    parts.add(CompletableFuture.completedFuture(pick(values, done)));
    return merge(hits.size(), positions, parts);
  }

  /** One batch per hit, so each hit's replies can be told apart (redirected or not). */
  private <T> PendingRequest.Replies<List<HitReply<T>>> queue(
      LanePipeline lane, List<Hit> hits, Commands<T> commands, boolean asking) {
    List<PipelineBatch> batches = new ArrayList<>(hits.size());
    List<RedisBatch.Reply<T>> replies = new ArrayList<>(hits.size());
    PipelineBatch.Options options = asking ? askingOptions : directOptions;
    for (Hit hit : hits) {
      PipelineBatch batch = new PipelineBatch(lane, keys, scripts, options);
      batches.add(batch);
      replies.add(commands.queue(batch, hit));
    }
    return new PendingRequest.Replies<>() {
      @Override
      public boolean resendMissingScripts(Pipeline retry) {
        boolean resent = false;
        for (PipelineBatch batch : batches) {
          resent |= batch.resendMissingScripts(retry);
        }
        return resent;
      }

      @Override
      public List<HitReply<T>> value() {
        List<HitReply<T>> outcomes = new ArrayList<>(batches.size());
        for (int i = 0; i < batches.size(); i++) {
          outcomes.add(batches.get(i).outcome(replies.get(i)));
        }
        return outcomes;
      }
    };
  }

  private static <E> List<E> pick(List<E> all, List<Integer> positions) {
    List<E> picked = new ArrayList<>(positions.size());
    positions.forEach(i -> picked.add(all.get(i)));
    return picked;
  }

  /** Puts each part's answers back at their positions in the request. */
  private static <T> CompletableFuture<List<T>> merge(
      int size, List<List<Integer>> positions, List<CompletableFuture<List<T>>> parts) {
    CompletableFuture<List<T>> answer = new CompletableFuture<>();
    CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .whenComplete(
            (all, failure) -> {
              if (failure != null) {
                answer.completeExceptionally(unwrapped(failure));
                return;
              }
              List<T> merged = new ArrayList<>(Collections.nCopies(size, null));
              for (int p = 0; p < parts.size(); p++) {
                List<T> answered = parts.get(p).join();
                List<Integer> at = positions.get(p);
                for (int i = 0; i < at.size(); i++) {
                  merged.set(at.get(i), answered.get(i));
                }
              }
              answer.complete(Collections.unmodifiableList(merged));
            });
    return answer;
  }

  /** Where redirected hits go next: the node, and whether behind ASKING. */
  private record Hop(HostAndPort target, boolean ask) {}

  /**
   * One send of some of a request's hits.
   *
   * @param redirects hops followed so far
   * @param asking whether each command goes behind {@code ASKING} (the hits were answered ASK)
   * @param deadlineNanos {@link System#nanoTime} at the end of the answer time, after which no
   *     redirect is followed
   */
  private record Attempt(int redirects, boolean asking, long deadlineNanos) {
    boolean mayFollow() {
      return redirects < MAX_REDIRECTS && System.nanoTime() - deadlineNanos < 0;
    }

    Attempt next(boolean ask) {
      return new Attempt(redirects + 1, ask, deadlineNanos);
    }
  }
}
