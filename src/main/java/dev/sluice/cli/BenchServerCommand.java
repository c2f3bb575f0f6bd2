package dev.sluice.cli;

import dev.sluice.bench.BenchServer;
import dev.sluice.config.SettingValues;
import dev.sluice.server.GrpcServer;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Runs the do-nothing RLS server until SIGTERM or SIGINT. */
@Command(
    modelTransformer = SettingOptions.BenchServer.class,
    name = "bench-server",
    mixinStandardHelpOptions = true,
    description =
        "Answer every ShouldRateLimit with OK at once, on Sluice's gRPC server settings or"
            + " grpc-java's defaults: drive it with 'bench' to measure the gRPC ceiling of a"
            + " machine.")
final class BenchServerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    SettingValues values = SettingOptions.values(spec);
    BenchServer.Transport transport = values.get(BenchSettings.SERVER_TRANSPORT);
    int port = values.get(BenchSettings.SERVER_PORT);
    GrpcServer server = BenchServer.start(port, transport);
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
    out.println(
        "bench-server: answering OK on gRPC port "
            + server.port()
            + " ("
            + transport.configName()
            + " transport)");
    out.flush();
    stopped.await();
    return 0;
  }
}
