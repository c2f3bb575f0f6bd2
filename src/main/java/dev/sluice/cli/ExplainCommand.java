package dev.sluice.cli;

import com.google.protobuf.util.JsonFormat;
import dev.sluice.admin.ProtoJson;
import dev.sluice.config.RedisConfig;
import dev.sluice.config.RedisSettings;
import dev.sluice.config.ServeSettings;
import dev.sluice.config.SettingValues;
import dev.sluice.config.StoreKind;
import dev.sluice.explain.ExplainProtos;
import dev.sluice.explain.ExplainText;
import dev.sluice.explain.Explainer;
import dev.sluice.explain.Explanation;
import dev.sluice.limiter.DescriptorRequest;
import dev.sluice.limiter.RateLimitCall;
import dev.sluice.rules.Entry;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import dev.sluice.store.CounterStore;
import dev.sluice.store.memory.InMemoryCounterStore;
import dev.sluice.store.redis.RedisCounterStore;
import dev.sluice.threads.DaemonThreadFactory;
import dev.sluice.threads.ExecutorScheduler;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice explain}: why a request would be answered as it would, against rule files and
 * (optionally) the live counters in Redis, without consuming anything.
 */
@Command(
    modelTransformer = SettingOptions.Explain.class,
    name = "explain",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "Explain a request: each descriptor's candidates, rule, effect and counter (nothing is"
            + " consumed).")
final class ExplainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--domain",
      required = true,
      defaultValue = "${env:SLUICE_EXPLAIN_DOMAIN}",
      description = "Request domain (env SLUICE_EXPLAIN_DOMAIN).")
  String domain;

  @Option(
      names = "--descriptor",
      required = true,
      defaultValue = "${env:SLUICE_EXPLAIN_DESCRIPTOR}",
      description =
          "One descriptor, entries in order: k=v[,k=v...]; repeat for more descriptors (env"
              + " SLUICE_EXPLAIN_DESCRIPTOR: descriptors separated by ';').")
  List<String> descriptors;

  @Option(
      names = "--hits-addend",
      defaultValue = "${env:SLUICE_EXPLAIN_HITS_ADDEND:-0}",
      description = "Request hits_addend; 0 = unset (counts 1) (env SLUICE_EXPLAIN_HITS_ADDEND).")
  long hitsAddend;

  @Option(
      names = "--json",
      defaultValue = "${env:SLUICE_EXPLAIN_JSON:-false}",
      description = "Print sluice.admin.v1.ExplainResponse as JSON (env SLUICE_EXPLAIN_JSON).")
  boolean json;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // Read as serve and check read them, so explain shows the rules a deployment would load.
    RuleLoader loader = rules().loader();
    LoadResult result = loader.load(rules().config());
    if (result instanceof LoadResult.Failed failed) {
      failed.problems().forEach(err::println);
      return 1;
    }
    LoadResult.Loaded loaded = (LoadResult.Loaded) result;
    RateLimitCall call = toCall();
    try (ExecutorScheduler scheduler = new ExecutorScheduler(1);
        CounterStore counters = openStore(scheduler)) {
      Explanation explanation =
          new Explainer(loaded::rules, counters, rules().defaultAlgorithm())
              .explain(call)
              .get(30, TimeUnit.SECONDS);
      out.print(json ? json(explanation) : ExplainText.render(explanation));
      out.flush();
    }
    return 0;
  }

  /** As the admin port prints it: proto3 JSON, not HTML-escaped ({@code =} stays {@code =}). */
  private static String json(Explanation explanation) {
    return ProtoJson.print(
        JsonFormat.printer().preservingProtoFieldNames(), ExplainProtos.of(explanation));
  }

  /** A tool's store, closed with the command: a fresh memory store, or the servers' Redis. */
  private CounterStore openStore(ExecutorScheduler scheduler) {
    SettingValues values = SettingOptions.values(spec);
    if (values.get(ServeSettings.STORE) == StoreKind.MEMORY) {
      return new InMemoryCounterStore(Clock.systemUTC(), scheduler);
    }
    // A tool, not the request path: a generous timeout, one connection.
    return new RedisCounterStore(
            new RedisConfig(
                values.get(RedisSettings.REDIS_URL),
                Duration.ofSeconds(2),
                1,
                values.get(RedisSettings.REDIS_KEY_PREFIX)),
            Clock.systemUTC(),
            new DaemonThreadFactory("sluice-explain-redis"))
        .start();
  }

  private RateLimitCall toCall() {
    List<DescriptorRequest> list = new ArrayList<>();
    for (String option : descriptors) {
      for (String descriptor : option.split(";")) {
        list.add(
            new DescriptorRequest(entries(descriptor), Optional.empty(), OptionalLong.empty()));
      }
    }
    try {
      return new RateLimitCall(domain, list, hitsAddend);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  private List<Entry> entries(String descriptor) {
    List<Entry> entries = new ArrayList<>();
    for (String pair : descriptor.split(",")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new ParameterException(
            spec.commandLine(), "--descriptor wants k=v[,k=v...]: '" + descriptor + "'");
      }
      entries.add(new Entry(pair.substring(0, eq).trim(), pair.substring(eq + 1)));
    }
    return entries;
  }

  private RulesOptions rules() {
    return new RulesOptions(SettingOptions.values(spec));
  }
}
