package dev.sluice.explain;

import com.google.protobuf.Duration;
import dev.sluice.admin.AdminProtos;
import dev.sluice.admin.v1.DescriptorExplanation.Effect;
import dev.sluice.admin.v1.ExplainResponse;
import dev.sluice.admin.v1.ExplainedCounter;
import dev.sluice.admin.v1.MatchStep.Candidate;
import dev.sluice.admin.v1.MatchStep.Outcome;
import dev.sluice.rules.Entry;
import dev.sluice.rules.Limit;
import dev.sluice.rules.MatchStep;
import dev.sluice.service.ProtoValues;
import java.util.Locale;

/**
 * An {@link Explanation} as the {@code sluice.admin.v1} messages: what the admin gRPC Explain
 * answers, and, through protobuf's JsonFormat, what {@code POST /explain} and {@code sluice explain
 * --json} print, so the three never disagree.
 */
public final class ExplainProtos {
  private ExplainProtos() {}

  public static ExplainResponse of(Explanation explanation) {
    ExplainResponse.Builder response =
        ExplainResponse.newBuilder()
            .setDomain(explanation.domain())
            .setDomainKnown(explanation.domainKnown());
    explanation.descriptors().forEach(d -> response.addDescriptors(descriptor(d)));
    return response.build();
  }

  private static dev.sluice.admin.v1.DescriptorExplanation descriptor(DescriptorExplanation d) {
    dev.sluice.admin.v1.DescriptorExplanation.Builder proto =
        dev.sluice.admin.v1.DescriptorExplanation.newBuilder();
    d.entries().forEach(e -> proto.addEntries(entry(e)));
    d.steps().forEach(s -> proto.addSteps(step(s)));
    d.rule().ifPresent(r -> proto.setRule(AdminProtos.rule(r)));
    effect(proto, d.effect());
    return proto.build();
  }

  private static void effect(
      dev.sluice.admin.v1.DescriptorExplanation.Builder proto, dev.sluice.explain.Effect effect) {
    if (effect instanceof dev.sluice.explain.Effect.Counted counted) {
      proto.setEffect(counted.override() ? Effect.OVERRIDE : Effect.COUNTED);
      proto.setCounter(counter(counted));
    } else if (effect instanceof dev.sluice.explain.Effect.Replaced replaced) {
      proto.setEffect(Effect.REPLACED).addAllReplacedBy(replaced.by());
    } else if (effect instanceof dev.sluice.explain.Effect.Unlimited) {
      proto.setEffect(Effect.UNLIMITED);
    } else if (effect instanceof dev.sluice.explain.Effect.NoRateLimit) {
      proto.setEffect(Effect.NO_RATE_LIMIT);
    } else if (effect instanceof dev.sluice.explain.Effect.NoMatch) {
      proto.setEffect(Effect.NO_MATCH);
    } else {
      proto.setEffect(Effect.UNKNOWN_DOMAIN);
    }
  }

  private static ExplainedCounter counter(dev.sluice.explain.Effect.Counted counted) {
    Limit limit = counted.hit().limit();
    java.time.Duration reset = counted.counter().usage().untilReset();
    return ExplainedCounter.newBuilder()
        .setKey(counted.hit().key())
        .setStoreKey(counted.counter().storeKey())
        .setRequestsPerUnit(ProtoValues.uint32(limit.requestsPerUnit()))
        .setUnit(limit.unit().name().toLowerCase(Locale.ROOT))
        .setAlgorithm(limit.algorithm().configName())
        .setBurst(ProtoValues.uint32(limit.burst()))
        .setHits(counted.hit().hits())
        .setShadowMode(counted.shadowMode())
        .setQuotaMode(counted.quotaMode())
        .setExists(counted.counter().exists())
        .setCount(counted.counter().usage().countAfter())
        .setRemaining(counted.counter().usage().remaining())
        .setDurationUntilReset(
            Duration.newBuilder().setSeconds(reset.getSeconds()).setNanos(reset.getNano()))
        .setNextOverLimit(counted.nextOverLimit())
        .setWindow(limit.window().words())
        .build();
  }

  private static dev.sluice.admin.v1.MatchStep step(MatchStep step) {
    dev.sluice.admin.v1.MatchStep.Builder proto =
        dev.sluice.admin.v1.MatchStep.newBuilder()
            .setLevel(step.depth() + 1)
            .setEntry(entry(step.entry()))
            .setCandidate(Candidate.valueOf(step.candidate().name()))
            .setConfigured(step.configured())
            .setOutcome(Outcome.valueOf(step.outcome().name()));
    step.rule().ifPresent(r -> proto.setRuleId(r.id()).setOrigin(r.origin()));
    return proto.build();
  }

  private static dev.sluice.admin.v1.Entry entry(Entry entry) {
    return dev.sluice.admin.v1.Entry.newBuilder()
        .setKey(entry.key())
        .setValue(entry.value())
        .build();
  }
}
