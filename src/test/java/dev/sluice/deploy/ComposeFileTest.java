package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.sluice.cli.Main;
import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.StoreKind;
import dev.sluice.deploy.ComposeFile.Port;
import dev.sluice.deploy.ComposeFile.Volume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** {@code docker-compose.yml} runs what the repository holds, the way Sluice and Envoy take it. */
class ComposeFileTest {
  private final ComposeFile compose = ComposeFile.load();
  private final List<String> sluiceCommand = compose.command("sluice");

  @Test
  void services_areTheDemoStack() {
    assertThat(compose.serviceNames())
        .containsExactlyInAnyOrder("redis", "sluice", "envoy", "prometheus");
  }

  @Test
  void images_arePinnedToAVersion_orBuiltFromTheRepositoryDockerfile() {
    for (String service : compose.serviceNames()) {
      compose
          .image(service)
          .ifPresentOrElse(
              image ->
                  assertThat(image)
                      .as(service)
                      .matches(DockerfileTest.PINNED)
                      .doesNotContain(":latest"),
              () -> assertThat(compose.service(service).get("build")).as(service).isNotNull());
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> build = (Map<String, Object>) compose.service("sluice").get("build");
    assertThat(Path.of((String) build.get("context")).resolve((String) build.get("dockerfile")))
        .isEqualTo(Path.of(".").resolve(Dockerfile.FILE))
        .isRegularFile();
  }

  @Test
  void hostMounts_existInTheRepository_andAreReadOnly() {
    for (String service : compose.serviceNames()) {
      for (Volume volume : compose.volumes(service)) {
        assertThat(volume.source()).as(service).startsWith("./");
        assertThat(Path.of(volume.source())).as(service).exists();
        assertThat(volume.readOnly()).as(service + " " + volume).isTrue();
      }
    }
  }

  @Test
  void sluiceCommand_isAcceptedBySluiceServe_andUsesTheComposeRedis() {
    assertThatCode(() -> SluiceCommandLine.parse(sluiceCommand)).doesNotThrowAnyException();
    RedisEndpoint.Standalone redis =
        (RedisEndpoint.Standalone) SluiceCommandLine.optionValue(sluiceCommand, "--redis-url");

    assertThat(sluiceCommand.get(0)).isEqualTo("serve");
    assertThat(SluiceCommandLine.optionValue(sluiceCommand, "--store")).isEqualTo(StoreKind.REDIS);
    assertThat(compose.serviceNames()).contains(redis.host());
    assertThat(redis.port()).isEqualTo(6379);
    assertThat(compose.dependencyCondition("sluice", redis.host())).contains("service_healthy");
    assertThat(compose.service(redis.host())).containsKey("healthcheck");
  }

  @Test
  void rulesMount_isWhereTheImageLooksForRules_andPassesCheck() {
    String workdir = Dockerfile.load().finalStage().workdir();
    String rulesPath = workdir + "/" + SluiceCommandLine.optionValue(sluiceCommand, "--config");
    Volume rules =
        compose.volumes("sluice").stream()
            .filter(volume -> volume.target().equals(rulesPath))
            .findFirst()
            .orElseThrow(() -> new AssertionError("nothing mounted at " + rulesPath));

    assertThat(rules.source()).isEqualTo("./config/rules");
    assertThat(Main.run("check", "--config", rules.source())).isZero();
  }

  @Test
  void sluicePorts_arePublished_andAreTheOnesEnvoyAndPrometheusUse() throws IOException {
    int grpcPort = (int) SluiceCommandLine.optionValue(sluiceCommand, "--grpc-port");
    int httpPort = (int) SluiceCommandLine.optionValue(sluiceCommand, "--http-port");
    EnvoyConfig envoy = EnvoyConfig.load();

    assertThat(compose.ports("sluice"))
        .containsExactlyInAnyOrder(new Port(grpcPort, grpcPort), new Port(httpPort, httpPort));
    assertThat(envoy.onlyEndpoint("sluice").getAddress()).isEqualTo("sluice");
    assertThat(envoy.onlyEndpoint("sluice").getPortValue()).isEqualTo(grpcPort);
    assertThat(prometheusTarget("sluice")).isEqualTo("sluice:" + httpPort);
  }

  @Test
  void envoy_readsTheMountedConfig_publishesItsListenerAndAdmin_startsAfterSluiceIsHealthy() {
    EnvoyConfig envoy = EnvoyConfig.load();
    List<String> command = compose.command("envoy");
    String configPath = command.get(command.indexOf("-c") + 1);
    int listener =
        envoy.listener(EnvoyConfig.EDGE_LISTENER).getAddress().getSocketAddress().getPortValue();
    int admin = envoy.bootstrap().getAdmin().getAddress().getSocketAddress().getPortValue();

    assertThat(compose.volumes("envoy"))
        .contains(new Volume("./" + EnvoyConfig.FILE, configPath, true));
    assertThat(compose.ports("envoy"))
        .containsExactlyInAnyOrder(new Port(listener, listener), new Port(admin, admin));
    assertThat(compose.dependencyCondition("envoy", "sluice")).contains("service_healthy");
    assertThat(Dockerfile.load().finalStage().all("HEALTHCHECK")).hasSize(1);
  }

  @Test
  void prometheus_isOptional_andScrapesEnvoyAdmin() throws IOException {
    int admin =
        EnvoyConfig.load().bootstrap().getAdmin().getAddress().getSocketAddress().getPortValue();

    assertThat(compose.service("prometheus").get("profiles")).isEqualTo(List.of("observability"));
    assertThat(prometheusTarget("envoy")).isEqualTo("envoy:" + admin);
  }

  /** The one target of the Prometheus job named like the service it scrapes. */
  @SuppressWarnings("unchecked")
  private static String prometheusTarget(String job) throws IOException {
    Map<String, Object> config =
        new Yaml(new SafeConstructor(new LoaderOptions()))
            .load(Files.readString(Path.of("config/prometheus.yml")));
    Map<String, Object> scrape =
        ((List<Map<String, Object>>) config.get("scrape_configs"))
            .stream()
                .filter(c -> job.equals(c.get("job_name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no job " + job));
    List<Map<String, Object>> statics = (List<Map<String, Object>>) scrape.get("static_configs");
    return ((List<String>) statics.get(0).get("targets")).get(0);
  }
}
