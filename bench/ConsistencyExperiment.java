// The load generator of bench/consistency.sh (run by it, by hand; never part of verify):
//   java -cp target/sluice.jar bench/ConsistencyExperiment.java MODE PATTERN PORTS RATE TOTAL LIMIT RUN [warmup]
// Sends TOTAL ShouldRateLimit requests at a steady RATE per second (open loop: request i is due at
// start + i / RATE, latency runs from its due time), each to one of the Sluice gRPC PORTS
// (comma-separated) by PATTERN: even (round robin), skewed (70/20/10) or onehot (all to the first).
// The descriptor is (mode=MODE, run=RUN): the rule file of consistency.sh gives each mode its own
// rule and each run its own counter. Waits first until the rest of the current minute holds the
// whole run, so a run never straddles a fixed window (not with "warmup", which only warms the
// servers' code paths and prints nothing).
// Prints one tab-separated line: allowed, denied, false denials, errors, p50 and p99 in
// microseconds, and the seconds the sending took. A false denial is a refused request that an
// ideal limiter (one global count, no delay) would have allowed: one sent while fewer than LIMIT
// of the requests sent before it were allowed. Judged by send order, so in exact mode the few
// requests overtaken in flight (sent later, counted earlier by Redis) can show as false denials.
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

public class ConsistencyExperiment {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    String pattern = args[1];
    String[] ports = args[2].split(",");
    double rate = Double.parseDouble(args[3]);
    int total = Integer.parseInt(args[4]);
    long limit = Long.parseLong(args[5]);
    String run = args[6];
    boolean warmup = args.length > 7 && args[7].equals("warmup");

    List<ManagedChannel> channels = new ArrayList<>();
    List<RateLimitServiceGrpc.RateLimitServiceStub> stubs = new ArrayList<>();
    for (String port : ports) {
      ManagedChannel channel =
          ManagedChannelBuilder.forAddress("127.0.0.1", Integer.parseInt(port))
              .usePlaintext()
              .directExecutor()
              .build();
      channels.add(channel);
      stubs.add(RateLimitServiceGrpc.newStub(channel));
    }
    RateLimitRequest request =
        RateLimitRequest.newBuilder()
            .setDomain("bench")
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .addEntries(entry("mode", mode))
                    .addEntries(entry("run", run)))
            .build();
    // Warm each channel (connection, first call) on another counter of the same rule.
    for (RateLimitServiceGrpc.RateLimitServiceStub stub : stubs) {
      RateLimitServiceGrpc.newBlockingStub(stub.getChannel())
          .shouldRateLimit(
              RateLimitRequest.newBuilder()
                  .setDomain("bench")
                  .addDescriptors(
                      RateLimitDescriptor.newBuilder()
                          .addEntries(entry("mode", mode))
                          .addEntries(entry("run", run + "-warmup")))
                  .build());
    }

    long runMillis = (long) Math.ceil(total / rate * 1000) + 3000;
    long intoMinute = System.currentTimeMillis() % 60_000;
    if (!warmup && intoMinute + runMillis > 59_000) {
      Thread.sleep(60_000 - intoMinute + 300);
    }

    AtomicLong allowed = new AtomicLong();
    AtomicLong denied = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    byte[] outcome = new byte[total]; // 1 allowed, 2 denied, 0 failed
    long[] latencies = new long[total];
    CountDownLatch done = new CountDownLatch(total);
    long start = System.nanoTime();
    for (int i = 0; i < total; i++) {
      long due = start + (long) (i * 1e9 / rate);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
      int index = i;
      stubs
          .get(route(pattern, i, stubs.size()))
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .shouldRateLimit(
              request,
              new StreamObserver<RateLimitResponse>() {
                @Override
                public void onNext(RateLimitResponse response) {
                  latencies[index] = System.nanoTime() - due;
                  boolean ok = response.getOverallCode() == RateLimitResponse.Code.OK;
                  (ok ? allowed : denied).incrementAndGet();
                  outcome[index] = (byte) (ok ? 1 : 2);
                }

                @Override
                public void onError(Throwable t) {
                  latencies[index] = System.nanoTime() - due;
                  errors.incrementAndGet();
                  done.countDown();
                }

                @Override
                public void onCompleted() {
                  done.countDown();
                }
              });
    }
    double sendSeconds = (System.nanoTime() - start) / 1e9;
    done.await(30, TimeUnit.SECONDS);
    long allowedBefore = 0;
    long falseDenials = 0;
    for (byte o : outcome) {
      if (o == 2 && allowedBefore < limit) {
        falseDenials++;
      }
      allowedBefore += o == 1 ? 1 : 0;
    }
    if (warmup) {
      channels.forEach(ManagedChannel::shutdownNow);
      return;
    }
    long[] sorted = latencies.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "%d\t%d\t%d\t%d\t%d\t%d\t%.1f%n",
        allowed.get(),
        denied.get(),
        falseDenials,
        errors.get(),
        sorted[(int) (total * 0.50)] / 1000,
        sorted[(int) (total * 0.99)] / 1000,
        sendSeconds);
    channels.forEach(ManagedChannel::shutdownNow);
  }

  /** Which instance request {@code i} goes to. */
  static int route(String pattern, int i, int instances) {
    return switch (pattern) {
      case "even" -> i % instances;
      case "skewed" -> i % 10 < 7 ? 0 : i % 10 < 9 ? 1 : 2; // 70 / 20 / 10
      case "onehot" -> 0;
      default -> throw new IllegalArgumentException("pattern: even, skewed or onehot: " + pattern);
    };
  }

  static RateLimitDescriptor.Entry entry(String key, String value) {
    return RateLimitDescriptor.Entry.newBuilder().setKey(key).setValue(value).build();
  }
}
