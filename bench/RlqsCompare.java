// The load generator of bench/rlqs-compare.sh (run by it, by hand; never part of verify):
//   java -cp target/sluice.jar bench/RlqsCompare.java KIND PORTS DEMANDS SECONDS LIMIT RUN [SHIFT]
// Plays the same clients against a fleet of Sluice instances either as RLS callers (KIND exact,
// synced or split: one ShouldRateLimit per request, descriptor (mode=KIND, run=RUN)) or as Envoys'
// rate_limit_quota filters (KIND rlqs: a SimulatedEnvoy per client on bucket {mode: rlqs, run:
// RUN}, one report a second). Client i (DEMANDS, comma-separated, requests per second) talks to
// PORTS[i % n]. SHIFT, e.g. 15:20,60,15,80, sets every client's demand at that second.
// RLS callers are open loop in real time: request k of a client is due at start + k / demand and
// counts in the second it was sent (the run starts on a whole epoch second, so the periods are the
// fixed windows). RLQS Envoys run on their own virtual time, one step a second.
// Prints per second to stderr; to stdout one tab-separated line: admitted total, denied total,
// converged (seconds; after it every second's admitted total is within 10 % of its target,
// min(LIMIT, offered)), admitted per second after convergence, target per second then, false
// denials (denied in seconds whose total was under 90 % of the target), over-admission (requests
// admitted above LIMIT, summed over the seconds), the worst second's admitted total, the clients'
// shares over the last 5 seconds (admitted per second, slash-separated), and RPC errors.
import dev.sluice.rlqs.SimulatedEnvoy;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

public class RlqsCompare {
  public static void main(String[] args) throws Exception {
    String kind = args[0];
    String[] ports = args[1].split(",");
    double[] demands = parse(args[2]);
    int seconds = Integer.parseInt(args[3]);
    double limit = Double.parseDouble(args[4]);
    String run = args[5];
    int shiftAt = args.length > 6 ? Integer.parseInt(args[6].split(":")[0]) : -1;
    double[] after = args.length > 6 ? parse(args[6].split(":")[1]) : demands;

    List<ManagedChannel> channels = new ArrayList<>();
    for (String port : ports) {
      channels.add(
          ManagedChannelBuilder.forAddress("127.0.0.1", Integer.parseInt(port))
              .usePlaintext()
              .build());
    }
    int n = demands.length;
    long[][] admitted = new long[n][seconds];
    long[][] denied = new long[n][seconds];
    AtomicLong errors = new AtomicLong();
    if (kind.equals("rlqs")) {
      playEnvoys(channels, run, demands, after, shiftAt, admitted, denied);
    } else {
      playCallers(channels, kind, run, demands, after, shiftAt, admitted, denied, errors);
    }
    channels.forEach(ManagedChannel::shutdownNow);
    report(limit, admitted, denied, errors.get());
  }

  private static double[] parse(String csv) {
    return Arrays.stream(csv.split(",")).mapToDouble(Double::parseDouble).toArray();
  }

  private static void playEnvoys(
      List<ManagedChannel> channels,
      String run,
      double[] demands,
      double[] after,
      int shiftAt,
      long[][] admitted,
      long[][] denied) {
    int n = demands.length;
    int seconds = admitted[0].length;
    SimulatedEnvoy[] envoys = new SimulatedEnvoy[n];
    for (int i = 0; i < n; i++) {
      envoys[i] =
          new SimulatedEnvoy(
              channels.get(i % channels.size()),
              "bench",
              Map.of("mode", "rlqs", "run", run),
              demands[i],
              Duration.ofSeconds(1));
    }
    long start = System.nanoTime();
    for (int s = 0; s < seconds; s++) {
      if (s == shiftAt) {
        for (int i = 0; i < n; i++) {
          envoys[i].demand(after[i]);
        }
      }
      for (SimulatedEnvoy envoy : envoys) {
        envoy.step();
      }
      // A real second between steps, so the servers' turns and the demand exchange run as they
      // would with Envoys reporting every second.
      LockSupport.parkNanos(start + (s + 1) * 1_000_000_000L - System.nanoTime());
    }
    for (int i = 0; i < n; i++) {
      for (int s = 0; s < seconds; s++) {
        admitted[i][s] = envoys[i].admitted().get(s);
        denied[i][s] = envoys[i].denied().get(s);
      }
      envoys[i].close();
    }
  }

  private static void playCallers(
      List<ManagedChannel> channels,
      String kind,
      String run,
      double[] demands,
      double[] after,
      int shiftAt,
      long[][] admitted,
      long[][] denied,
      AtomicLong errors)
      throws InterruptedException {
    int n = demands.length;
    int seconds = admitted[0].length;
    RateLimitRequest request =
        RateLimitRequest.newBuilder()
            .setDomain("bench")
            .addDescriptors(
                RateLimitDescriptor.newBuilder()
                    .addEntries(entry("mode", kind))
                    .addEntries(entry("run", run)))
            .build();
    // Unmeasured: each channel's connection and the client's own JIT, on another counter of the
    // rule, so the first measured second is not the client starting up.
    for (ManagedChannel channel : channels) {
      var warm = RateLimitServiceGrpc.newBlockingStub(channel);
      RateLimitRequest other =
          request.toBuilder()
              .setDescriptors(
                  0,
                  RateLimitDescriptor.newBuilder()
                      .addEntries(entry("mode", kind))
                      .addEntries(entry("run", run + "-warm")))
              .build();
      for (int k = 0; k < 200; k++) {
        warm.shouldRateLimit(other);
      }
    }
    // Start on the next whole epoch second (+50 ms), so each counted second is one fixed window.
    long startMillis = (System.currentTimeMillis() / 1000 + 1) * 1000 + 50;
    LockSupport.parkNanos((startMillis - System.currentTimeMillis()) * 1_000_000L);
    long startNanos = System.nanoTime();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int client = i;
      var stub = RateLimitServiceGrpc.newBlockingStub(channels.get(i % channels.size()));
      AtomicLongArray ok = new AtomicLongArray(seconds);
      AtomicLongArray no = new AtomicLongArray(seconds);
      Thread t =
          new Thread(
              () -> {
                double due = 0; // seconds since start
                while (due < seconds) {
                  int second = (int) due;
                  double rate = second >= shiftAt && shiftAt >= 0 ? after[client] : demands[client];
                  if (rate <= 0) {
                    due = Math.floor(due) + 1;
                    continue;
                  }
                  LockSupport.parkNanos(startNanos + (long) (due * 1e9) - System.nanoTime());
                  // Counted in the second it is sent, the window Redis counts it in, not the one
                  // it was due in: on a loaded machine a caller falls behind its schedule.
                  int sent = (int) ((System.nanoTime() - startNanos) / 1_000_000_000L);
                  if (sent >= seconds) {
                    break;
                  }
                  try {
                    RateLimitResponse answer = stub.shouldRateLimit(request);
                    if (answer.getOverallCode() == RateLimitResponse.Code.OK) {
                      ok.incrementAndGet(sent);
                    } else {
                      no.incrementAndGet(sent);
                    }
                  } catch (RuntimeException e) {
                    errors.incrementAndGet();
                  }
                  double next = due + 1 / rate;
                  // A new demand starts at its second, not one old interval after it.
                  due = (int) next > second && (int) next == shiftAt ? shiftAt : next;
                }
                for (int s = 0; s < seconds; s++) {
                  admitted[client][s] = ok.get(s);
                  denied[client][s] = no.get(s);
                }
              });
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join();
    }
  }

  private static RateLimitDescriptor.Entry entry(String key, String value) {
    return RateLimitDescriptor.Entry.newBuilder().setKey(key).setValue(value).build();
  }

  private static void report(double limit, long[][] admitted, long[][] denied, long errors) {
    int n = admitted.length;
    int seconds = admitted[0].length;
    double[] totals = new double[seconds];
    double[] targets = new double[seconds];
    double[] refused = new double[seconds];
    long allAdmitted = 0;
    long allDenied = 0;
    for (int s = 0; s < seconds; s++) {
      StringBuilder line = new StringBuilder();
      double offered = 0;
      for (int i = 0; i < n; i++) {
        totals[s] += admitted[i][s];
        refused[s] += denied[i][s];
        offered += admitted[i][s] + denied[i][s];
        line.append(String.format(Locale.ROOT, " | c%d %d/%d", i + 1, admitted[i][s], denied[i][s]));
      }
      targets[s] = Math.min(limit, offered);
      allAdmitted += (long) totals[s];
      allDenied += (long) refused[s];
      System.err.printf(Locale.ROOT, "t=%2ds admitted %.0f of %.0f offered%s%n", s + 1, totals[s],
          offered, line);
    }
    int converged = seconds;
    while (converged > 0
        && Math.abs(totals[converged - 1] - targets[converged - 1])
            <= 0.10 * targets[converged - 1]) {
      converged--;
    }
    double afterAdmitted = 0;
    double afterTarget = 0;
    for (int s = converged; s < seconds; s++) {
      afterAdmitted += totals[s];
      afterTarget += targets[s];
    }
    double falseDenials = 0;
    double over = 0;
    double worst = 0;
    for (int s = 0; s < seconds; s++) {
      if (totals[s] < 0.9 * targets[s]) {
        falseDenials += refused[s];
      }
      over += Math.max(0, totals[s] - limit);
      worst = Math.max(worst, totals[s]);
    }
    StringBuilder shares = new StringBuilder();
    int tail = Math.min(5, seconds);
    for (int i = 0; i < n; i++) {
      long sum = 0;
      for (int s = seconds - tail; s < seconds; s++) {
        sum += admitted[i][s];
      }
      shares.append(i == 0 ? "" : "/").append(String.format(Locale.ROOT, "%.0f", (double) sum / tail));
    }
    int left = seconds - converged;
    System.out.printf(
        Locale.ROOT,
        "%d\t%d\t%d\t%s\t%s\t%.0f\t%.0f\t%.0f\t%s\t%d%n",
        allAdmitted,
        allDenied,
        converged,
        left == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", afterAdmitted / left),
        left == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", afterTarget / left),
        falseDenials,
        over,
        worst,
        shares,
        errors);
  }
}
