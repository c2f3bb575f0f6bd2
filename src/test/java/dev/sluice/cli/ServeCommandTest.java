package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.GrpcLimits;
import dev.sluice.config.GrpcTransportConfig;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.ServerConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Flags to the settings tree, without starting anything. */
class ServeCommandTest {
  private static ServeConfig parse(String... args) {
    CommandLine commandLine = new CommandLine(new ServeCommand());
    commandLine.parseArgs(args);
    return commandLine.<ServeCommand>getCommand().toConfig();
  }

  @Test
  void noFlags_buildTheDocumentedDefaults() {
    ServeConfig config = parse();
    assertThat(config.store().redis().endpoint())
        .isEqualTo(RedisEndpoint.Standalone.of("localhost", 6379));
    assertThat(config.store().redis().timeout()).isEqualTo(Duration.ofMillis(100));
    assertThat(config.store().redis().connections()).isEqualTo(2);
    assertThat(config.server().grpcThreads())
        .isEqualTo(ServerConfig.defaultGrpcThreads(Runtime.getRuntime().availableProcessors()))
        .isGreaterThanOrEqualTo(8);
  }

  @Test
  void capture_offByDefault_flagsBuildItsSettings() {
    assertThat(parse().capture().enabled()).isFalse();
    var capture =
        parse(
                "--capture-file=/tmp/c.jsonl",
                "--capture-sample=0.5",
                "--capture-hash-values",
                "--capture-max-bytes=2048",
                "--capture-max-files=3")
            .capture();
    assertThat(capture.file()).contains(java.nio.file.Path.of("/tmp/c.jsonl"));
    assertThat(capture.sampleRate()).isEqualTo(0.5);
    assertThat(capture.hashValues()).isTrue();
    assertThat(capture.maxBytes()).isEqualTo(2048);
    assertThat(capture.maxFiles()).isEqualTo(3);
  }

  @Test
  void captureSample_outOfRange_isAUsageErrorNamingTheFlag() {
    assertThatThrownBy(() -> parse("--capture-file=/tmp/c.jsonl", "--capture-sample=0"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("--capture-sample must be in (0, 1]: 0.0");
  }

  @Test
  void grpcThreads_number_orAuto() {
    assertThat(parse("--grpc-threads=3").server().grpcThreads()).isEqualTo(3);
    assertThat(parse("--grpc-threads", "AUTO").server().grpcThreads())
        .isEqualTo(parse().server().grpcThreads());
  }

  @Test
  void grpcTransport_defaults_areTheTunedOnes() {
    GrpcTransportConfig transport = parse().server().transport();
    assertThat(transport.transport()).isEqualTo(GrpcTransportConfig.Transport.AUTO);
    assertThat(transport.eventLoops())
        .isEqualTo(
            GrpcTransportConfig.defaultEventLoops(Runtime.getRuntime().availableProcessors()));
    assertThat(transport.flowControlWindowBytes()).isEqualTo(1 << 20);
    assertThat(transport.rlsHandlers()).isEqualTo(GrpcTransportConfig.RlsHandlers.AUTO);
  }

  @Test
  void grpcRlsHandlers_auto_isTheEventLoopExceptOnARedisCluster() {
    ServeConfig memory = parse();
    assertThat(memory.server().transport().resolvedFor(memory.store()).rlsHandlers())
        .isEqualTo(GrpcTransportConfig.RlsHandlers.EVENT_LOOP);
    ServeConfig standalone = parse("--store=redis", "--redis-url=redis://cache:6379");
    assertThat(standalone.server().transport().resolvedFor(standalone.store()).rlsHandlers())
        .isEqualTo(GrpcTransportConfig.RlsHandlers.EVENT_LOOP);
    ServeConfig cluster = parse("--store=redis", "--redis-url=redis-cluster://a:7000,b:7001");
    assertThat(cluster.server().transport().resolvedFor(cluster.store()).rlsHandlers())
        .isEqualTo(GrpcTransportConfig.RlsHandlers.POOL);
    ServeConfig chosen =
        parse(
            "--store=redis",
            "--redis-url=redis-cluster://a:7000,b:7001",
            "--grpc-rls-handlers=event-loop");
    assertThat(chosen.server().transport().resolvedFor(chosen.store()).rlsHandlers())
        .isEqualTo(GrpcTransportConfig.RlsHandlers.EVENT_LOOP);
  }

  @Test
  void grpcTransport_flags_buildItsSettings() {
    GrpcTransportConfig transport =
        parse(
                "--grpc-transport=NIO",
                "--grpc-event-loops=3",
                "--grpc-flow-control-window=65535",
                "--grpc-rls-handlers=pool")
            .server()
            .transport();
    assertThat(transport)
        .isEqualTo(
            new GrpcTransportConfig(
                GrpcTransportConfig.Transport.NIO,
                3,
                65_535,
                GrpcTransportConfig.RlsHandlers.POOL));
  }

  @Test
  void grpcTransport_badValues_areUsageErrorsNamingTheValue() {
    assertThatThrownBy(() -> parse("--grpc-transport=kqueue"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("unknown grpc transport 'kqueue'");
    assertThatThrownBy(() -> parse("--grpc-event-loops=0"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("invalid grpc event loops '0'");
    assertThatThrownBy(() -> parse("--grpc-flow-control-window=1000"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("flow control window must be >= 65535 bytes: 1000");
    assertThatThrownBy(() -> parse("--grpc-rls-handlers=virtual"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("unknown grpc rls handlers 'virtual'");
  }

  @Test
  void grpcLimits_defaults_flagsBuildTheirSettings() {
    assertThat(parse().server().grpcLimits()).isEqualTo(GrpcLimits.defaults());
    assertThat(
            parse(
                    "--grpc-max-concurrent-calls-per-connection=10",
                    "--grpc-max-connections=20",
                    "--grpc-max-queued-bytes=262144",
                    "--grpc-max-resets-per-second=0",
                    "--grpc-max-metadata-bytes=4096")
                .server()
                .grpcLimits())
        .isEqualTo(new GrpcLimits(10, 20, 262_144, 0, 4096));
  }

  @Test
  void grpcLimits_outOfRange_isAUsageErrorNamingTheSetting() {
    assertThatThrownBy(() -> parse("--grpc-max-queued-bytes=1000"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("grpc max queued bytes must be >= 131072: 1000");
  }

  @Test
  void grpcThreads_zero_isAUsageErrorNamingTheValue() {
    assertThatThrownBy(() -> parse("--grpc-threads=0"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("invalid grpc threads '0'");
  }

  @Test
  void redisUrl_withPassword_neverShowsInTheTree() {
    ServeConfig config = parse("--store=redis", "--redis-url=redis://app:hunter2@cache:6380/1");
    assertThat(config.store().redis().endpoint().address()).isEqualTo("cache:6380");
    assertThat(config.toString()).doesNotContain("hunter2").contains("redis://app:***@cache");
  }

  @Test
  void redisUrl_thatWouldFailAtStartup_isRejectedHere() {
    // Each of these passed the old flag check and failed only when the store opened.
    for (String url :
        new String[] {
          "redis://h:hunter2@cache:6379/x", "redis://cache:6379?db=1", "redis://hunter2@cache"
        }) {
      assertThatThrownBy(() -> parse("--redis-url=" + url))
          .isInstanceOf(CommandLine.ParameterException.class)
          .hasMessageContaining("redis url")
          .hasMessageNotContaining("hunter2");
    }
  }

  @Test
  void redisTimeout_belowOneMillisecond_isRejectedHere() {
    assertThatThrownBy(() -> parse("--redis-timeout=500us"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("redis timeout must be between 1ms");
  }
}
