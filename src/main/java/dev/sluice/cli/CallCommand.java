package dev.sluice.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.sluice.bench.Target;
import dev.sluice.rules.Entry;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * One ShouldRateLimit call, answer printed as proto3 JSON: what grpcurl would do, without grpcurl
 * (it is not packaged by Debian). Exit 0 for OK, 1 for OVER_LIMIT, 3 when the call fails.
 */
@Command(
    name = "call",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Send one ShouldRateLimit request and print the answer as JSON.")
final class CallCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--target",
      defaultValue = "127.0.0.1:8081",
      converter = Converters.TargetConverter.class,
      description = "RLS server HOST:PORT (default ${DEFAULT-VALUE}).")
  Target target;

  @Option(names = "--domain", required = true, description = "Request domain.")
  String domain;

  @Option(
      names = "--descriptor",
      split = ",",
      paramLabel = "KEY=VALUE",
      required = true,
      converter = Converters.EntryConverter.class,
      description = "Entries of the one descriptor, in order (repeatable or comma-separated).")
  List<Entry> entries;

  @Option(
      names = "--hits-addend",
      defaultValue = "0",
      description = "Request hits_addend; 0 = unset (counts 1).")
  int hitsAddend;

  @Override
  public Integer call() throws InvalidProtocolBufferException {
    RateLimitDescriptor.Builder descriptor = RateLimitDescriptor.newBuilder();
    entries.forEach(e -> descriptor.addEntriesBuilder().setKey(e.key()).setValue(e.value()));
    RateLimitRequest request =
        RateLimitRequest.newBuilder()
            .setDomain(domain)
            .addDescriptors(descriptor)
            .setHitsAddend(hitsAddend)
            .build();
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress(target.host(), target.port()).usePlaintext().build();
    try {
      RateLimitResponse response =
          RateLimitServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(5, TimeUnit.SECONDS)
              .shouldRateLimit(request);
      spec.commandLine().getOut().println(JsonFormat.printer().print(response));
      return response.getOverallCode() == RateLimitResponse.Code.OVER_LIMIT ? 1 : 0;
    } catch (StatusRuntimeException e) {
      spec.commandLine().getErr().println("sluice call: " + e.getStatus());
      return 3;
    } finally {
      channel.shutdownNow();
    }
  }
}
