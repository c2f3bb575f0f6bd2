package dev.sluice.cli;

import dev.sluice.bench.BenchServer;
import dev.sluice.server.GrpcServer;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Runs the do-nothing RLS server until SIGTERM or SIGINT. */
@Command(
    name = "bench-server",
    mixinStandardHelpOptions = true,
    description =
        "Answer every ShouldRateLimit with OK at once, on Sluice's gRPC server settings: drive it"
            + " with 'bench' to measure the gRPC ceiling of a machine.")
final class BenchServerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      defaultValue = "${env:SLUICE_BENCH_SERVER_PORT:-8081}",
      description =
          "gRPC port, 0 = any free port (env SLUICE_BENCH_SERVER_PORT, default ${DEFAULT-VALUE}).")
  int port;

  @Override
  public Integer call() throws InterruptedException {
    GrpcServer server = BenchServer.start(port);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "bench-server-shutdown"));
    PrintWriter out = spec.commandLine().getOut();
    out.println("bench-server: answering OK on gRPC port " + server.port());
    out.flush();
    stopped.await();
    return 0;
  }
}
