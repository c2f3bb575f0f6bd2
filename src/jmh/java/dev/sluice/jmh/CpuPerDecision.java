package dev.sluice.jmh;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.infra.Blackhole;

/**
 * CPU time per decision of {@link CaptureBenchmark}, {@link TracingBenchmark} and {@link
 * ServiceBenchmark}'s (one per algorithm) setups, for a shared machine: JMH's wall-clock averages
 * grow with every other process's load, CPU time much less. Prints, per setup, the request thread's
 * CPU per decision (what the hot path pays) and the whole process's (background writer and exporter
 * threads, GC and JIT included). Run: {@code java -cp target/benchmarks.jar
 * dev.sluice.jmh.CpuPerDecision [calls]}.
 */
public final class CpuPerDecision {
  private static final Blackhole BLACKHOLE =
      new Blackhole(
          "Today's password is swordfish. I understand instantiating Blackholes directly is"
              + " dangerous.");

  private CpuPerDecision() {}

  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
    for (String capture : new String[] {"off", "0.01", "1"}) {
      CaptureBenchmark bench = new CaptureBenchmark();
      bench.capture = capture;
      bench.setUp();
      measure("capture " + capture, calls, () -> bench.shouldRateLimit(BLACKHOLE));
      bench.tearDown();
    }
    for (String algorithm : new String[] {"fixed_window", "token_bucket"}) {
      ServiceBenchmark bench = new ServiceBenchmark();
      bench.descriptors = 1;
      bench.algorithm = algorithm;
      bench.setUp();
      measure(algorithm, calls, bench::shouldRateLimit);
      bench.tearDown();
    }
    for (String tracing : new String[] {"off", "on"}) {
      TracingBenchmark bench = new TracingBenchmark();
      bench.tracing = tracing;
      bench.setUp();
      measure("tracing " + tracing, calls, () -> bench.shouldRateLimit(BLACKHOLE));
      bench.tearDown();
    }
  }

  private static void measure(String name, int calls, Runnable decision) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (int i = 0; i < calls; i++) {
      decision.run(); // warm-up: the same number of calls, so the JIT has compiled the path
    }
    long thread = threads.getCurrentThreadCpuTime();
    long process = os.getProcessCpuTime();
    long wall = System.nanoTime();
    for (int i = 0; i < calls; i++) {
      decision.run();
    }
    double perThread = (threads.getCurrentThreadCpuTime() - thread) / (double) calls;
    double perProcess = (os.getProcessCpuTime() - process) / (double) calls;
    double perWall = (System.nanoTime() - wall) / (double) calls;
    System.out.printf(
        "%-14s request thread %7.0f ns CPU/decision, process %7.0f ns CPU/decision, wall %7.0f"
            + " ns%n",
        name, perThread, perProcess, perWall);
  }
}
