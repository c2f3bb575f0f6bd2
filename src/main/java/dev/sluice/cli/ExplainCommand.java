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
import dev.sluice.rlqs.BucketReport;
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
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
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
    SettingValues values = SettingOptions.values(spec);
    String domain = values.get(ToolSettings.EXPLAIN_DOMAIN);
    List<String> buckets = values.get(ToolSettings.EXPLAIN_BUCKET);
    List<String> descriptors = values.get(ToolSettings.EXPLAIN_DESCRIPTOR);
    boolean anyBucket = !buckets.isEmpty();
    if (anyBucket) {
      for (String bucket : buckets) {
        out.println(
            BucketReport.describe(
                loaded.rules(), domain, bucketMap(bucket), System.currentTimeMillis()));
      }
    }
    if (descriptors.isEmpty()) {
      if (!anyBucket) {
        throw new ParameterException(spec.commandLine(), "--descriptor or --bucket is required");
      }
      out.flush();
      return 0;
    }
    RateLimitCall call = toCall(domain, descriptors, values.get(ToolSettings.EXPLAIN_HITS_ADDEND));
    try (ExecutorScheduler scheduler = new ExecutorScheduler(1);
        CounterStore counters = openStore(scheduler)) {
      Explanation explanation =
          new Explainer(loaded::rules, counters, rules().defaultAlgorithm())
              .explain(call)
              .get(30, TimeUnit.SECONDS);
      out.print(
          values.get(ToolSettings.EXPLAIN_JSON)
              ? json(explanation)
              : ExplainText.render(explanation));
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
            RedisConfig.builder(values.get(RedisSettings.REDIS_URL))
                .timeout(Duration.ofSeconds(2))
                .connections(1)
                .keyPrefix(values.get(RedisSettings.REDIS_KEY_PREFIX))
                .build(),
            Clock.systemUTC(),
            new DaemonThreadFactory("sluice-explain-redis"))
        .start();
  }

  private Map<String, String> bucketMap(String text) {
    try {
      return BucketMaps.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** Each {@code --descriptor} one descriptor ({@code ;} already split them). */
  private RateLimitCall toCall(String domain, List<String> descriptors, long hitsAddend) {
    List<DescriptorRequest> list = new ArrayList<>();
    for (String descriptor : descriptors) {
      list.add(new DescriptorRequest(entries(descriptor), Optional.empty(), OptionalLong.empty()));
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
