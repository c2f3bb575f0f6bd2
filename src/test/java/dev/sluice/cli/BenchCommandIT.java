package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.util.JsonFormat;
import dev.sluice.bench.BenchServer;
import dev.sluice.server.GrpcServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench} and its flags end to end, against the do-nothing server. */
class BenchCommandIT {

  private static int execute(StringWriter out, StringWriter err, String... args) {
    CommandLine commandLine = new CommandLine(new Main());
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    return commandLine.execute(args);
  }

  @Test
  void bench_json_oneJsonLineOnStdoutWhoseCountsAddUp_summaryOnStderr() throws Exception {
    try (GrpcServer server = BenchServer.start(0)) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();

      int exit =
          execute(
              out,
              err,
              "bench",
              "--target=127.0.0.1:" + server.port(),
              "--concurrency=4",
              "--duration=1s",
              "--warmup=200ms",
              "--domain=api",
              "--descriptor=tenant=t1",
              "--descriptor=user={key}",
              "--descriptors-per-request=2",
              "--keys=5",
              "--json");

      assertThat(exit).isZero();
      assertThat(out.toString().strip()).doesNotContain("\n");
      Struct.Builder json = Struct.newBuilder();
      JsonFormat.parser().merge(out.toString(), json);
      var fields = json.getFieldsMap();
      double sent = fields.get("sent").getNumberValue();
      assertThat(sent).isPositive();
      assertThat(fields.get("ok").getNumberValue()).isEqualTo(sent);
      assertThat(fields.get("errors").getNumberValue()).isZero();
      assertThat(fields.get("descriptors").getNumberValue()).isEqualTo(2);
      assertThat(fields.get("keys").getStringValue()).isEqualTo("5");
      assertThat(fields.get("mode").getStringValue()).isEqualTo("closed");
      assertThat(fields.get("p99_us").getNumberValue()).isPositive();
      assertThat(err.toString())
          .contains("bench: measuring for 1000 ms")
          .contains("bench: window closed")
          .contains("decisions/s")
          .contains("latency p50");
    }
  }
}
