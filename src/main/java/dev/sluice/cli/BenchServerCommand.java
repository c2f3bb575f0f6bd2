package dev.sluice.cli;

import dev.sluice.bench.BenchServer;
import dev.sluice.server.GrpcServer;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** Runs the do-nothing RLS server until SIGTERM or SIGINT. */
@Command(
    name = "bench-server",
    mixinStandardHelpOptions = true,
    description =
        "Answer every ShouldRateLimit with OK at once, on Sluice's gRPC server settings or"
            + " grpc-java's defaults: drive it with 'bench' to measure the gRPC ceiling of a"
            + " machine.")
final class BenchServerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      defaultValue = "${env:SLUICE_BENCH_SERVER_PORT:-8081}",
      description =
          "gRPC port, 0 = any free port (env SLUICE_BENCH_SERVER_PORT, default ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--transport",
      defaultValue = "${env:SLUICE_BENCH_SERVER_TRANSPORT:-tuned}",
      converter = TransportConverter.class,
      description =
          "tuned = Sluice's gRPC settings (epoll event loops, handler on the event loop); default"
              + " = grpc-java's defaults (env SLUICE_BENCH_SERVER_TRANSPORT, default"
              + " ${DEFAULT-VALUE}).")
  BenchServer.Transport transport;

  @Override
  public Integer call() throws InterruptedException {
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

  static final class TransportConverter implements ITypeConverter<BenchServer.Transport> {
    @Override
    public BenchServer.Transport convert(String value) {
      try {
        return BenchServer.Transport.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
