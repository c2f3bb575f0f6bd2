package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.RuleSource;
import dev.sluice.config.Secret;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.XdsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class XdsOptionsTest {

  @Test
  void serve_noSourceFlag_readsFiles() {
    assertThat(parse().ruleSource()).isEqualTo(RuleSource.FILES);
  }

  @Test
  void serve_xdsFlags_intoXdsConfig() {
    ServeConfig config =
        parse(
            "--config-source=xds",
            "--config=/does/not/exist",
            "--xds-server=cp:18000",
            "--xds-node-id=sluice-1",
            "--xds-node-metadata={\"cluster\":\"edge\"}",
            "--xds-header=Authorization=Bearer x,x-team=a",
            "--xds-tls-ca=/etc/ca.pem",
            "--xds-tls-san=cp.internal",
            "--xds-backoff-initial=2s",
            "--xds-backoff-max=1m",
            "--xds-backoff-jitter=0.2");

    XdsConfig xds = (XdsConfig) config.ruleSource();
    assertThat(xds.server()).isEqualTo("cp:18000");
    assertThat(xds.nodeId()).isEqualTo("sluice-1");
    assertThat(xds.nodeMetadataJson()).isEqualTo("{\"cluster\":\"edge\"}");
    assertThat(xds.headers())
        .isEqualTo(Map.of("authorization", Secret.of("Bearer x"), "x-team", Secret.of("a")));
    assertThat(xds.toString()).doesNotContain("Bearer");
    assertThat(xds.tls().enabled()).isTrue();
    assertThat(xds.tls().caCert()).contains(Path.of("/etc/ca.pem"));
    assertThat(xds.tls().serverName()).isEqualTo(Optional.of("cp.internal"));
    assertThat(xds.backoff())
        .isEqualTo(new XdsConfig.Backoff(Duration.ofSeconds(2), Duration.ofMinutes(1), 0.2));
    assertThat(xds.requireInitialRules()).isTrue();
  }

  @Test
  void serve_badSourceOrMetadata_usageErrorNamingIt() {
    assertThatThrownBy(() -> parse("--config-source=grpc"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("invalid config source 'grpc'");
    assertThatThrownBy(() -> parse("--config-source=xds", "--xds-node-metadata=a=b"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("xds node metadata must be a JSON object: a=b");
  }

  private static ServeConfig parse(String... args) {
    ServeCommand command = new ServeCommand();
    new CommandLine(command).parseArgs(args);
    return command.toConfig();
  }
}
