package dev.sluice.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.sluice.bench.Target;
import dev.sluice.config.SettingValues;
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
import picocli.CommandLine.Spec;

/**
 * One ShouldRateLimit call, answer printed as proto3 JSON: what grpcurl would do, without grpcurl
 * (it is not packaged by Debian). Exit 0 for OK, 1 for OVER_LIMIT, 3 when the call fails.
 */
@Command(
    modelTransformer = SettingOptions.Call.class,
    name = "call",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Send one ShouldRateLimit request and print the answer as JSON.")
final class CallCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InvalidProtocolBufferException {
    SettingValues values = SettingOptions.values(spec);
    Target target = values.get(ToolSettings.CALL_TARGET);
    List<Entry> entries = values.get(ToolSettings.CALL_DESCRIPTOR);
    RateLimitDescriptor.Builder descriptor = RateLimitDescriptor.newBuilder();
    entries.forEach(e -> descriptor.addEntriesBuilder().setKey(e.key()).setValue(e.value()));
    RateLimitRequest request =
        RateLimitRequest.newBuilder()
            .setDomain(values.get(ToolSettings.CALL_DOMAIN))
            .addDescriptors(descriptor)
            .setHitsAddend(values.get(ToolSettings.CALL_HITS_ADDEND))
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
