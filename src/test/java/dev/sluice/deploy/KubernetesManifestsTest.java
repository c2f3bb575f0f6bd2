package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Main;
import dev.sluice.cli.ReferenceEnvironment;
import dev.sluice.cli.SettingOptions;
import dev.sluice.deploy.Dockerfile.Stage;
import dev.sluice.rules.Algorithm;
import dev.sluice.rules.load.LoadResult;
import dev.sluice.rules.load.RuleLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import picocli.CommandLine;

/**
 * {@code deploy/kubernetes/} runs the image the way the image and the code expect: the command,
 * ports and probe paths they have, Envoy Gateway's security context with nothing writable, only
 * {@code SLUICE_*} variables some {@code serve} option reads (with values it accepts), and rules
 * the loader takes.
 */
@SuppressWarnings("unchecked")
class KubernetesManifestsTest {
  private static final Path DIR = Path.of("deploy/kubernetes");

  /** Envoy Gateway's default security context for its rate-limit container. */
  private static final Map<String, Object> ENVOY_GATEWAY_SECURITY_CONTEXT =
      Map.of(
          "runAsNonRoot",
          true,
          "runAsUser",
          65534,
          "runAsGroup",
          65534,
          "readOnlyRootFilesystem",
          true,
          "allowPrivilegeEscalation",
          false,
          "capabilities",
          Map.of("drop", List.of("ALL")),
          "seccompProfile",
          Map.of("type", "RuntimeDefault"));

  private final Map<String, Map<String, Object>> byKind = load();
  private final Stage image = Dockerfile.load().finalStage();
  private final Map<String, Object> pod = map(map(byKind.get("Deployment"), "spec"), "template");
  private final Map<String, Object> container = only(list(map(pod, "spec"), "containers"));

  @TempDir Path tmp;

  @Test
  void resources_areTheDeploymentItsServiceRulesAndDisruptionBudget() {
    assertThat(byKind)
        .containsOnlyKeys("Deployment", "Service", "ConfigMap", "PodDisruptionBudget");
    assertThat((String) container.get("image")).isNotBlank().doesNotEndWith(":latest");
  }

  /** No command or args: ENTRYPOINT and CMD, which must be a command line Sluice accepts. */
  @Test
  void container_runsTheImagesServe() {
    List<String> cmd = image.only("CMD").execForm();

    assertThat(container).doesNotContainKeys("command", "args");
    assertThat(image.only("ENTRYPOINT").execForm()).endsWith("-jar", "/app/sluice.jar");
    assertThat(cmd).containsExactly("serve");
    assertThat(SluiceCommandLine.parse(cmd).subcommand().commandSpec().name()).isEqualTo("serve");
  }

  @Test
  void ports_areServesDefaults_andTheImagesExposedOnes() {
    Map<String, Integer> ports = containerPorts();

    assertThat(ports)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "grpc", (Integer) SluiceCommandLine.serveDefault("--grpc-port"),
                "http", (Integer) SluiceCommandLine.serveDefault("--http-port")));
    assertThat(image.only("EXPOSE").words())
        .containsExactlyInAnyOrderElementsOf(ports.values().stream().map(String::valueOf).toList());
    Map<String, Object> annotations = map(map(pod, "metadata"), "annotations");
    assertThat(annotations)
        .containsEntry("prometheus.io/port", String.valueOf(ports.get("http")))
        .containsEntry("prometheus.io/path", "/metrics");
  }

  /**
   * Traffic follows /healthcheck (startup, readiness); liveness only asks that the HTTP port
   * answers, so a Redis outage (health 503) does not restart the replicas.
   */
  @Test
  void probes_healthcheckOnTheHttpPort_livenessItsSocket() {
    for (String probe : List.of("startupProbe", "readinessProbe")) {
      Map<String, Object> get = map(map(container, probe), "httpGet");
      assertThat(get).as(probe).containsEntry("path", "/healthcheck").containsEntry("port", "http");
    }
    assertThat(map(map(container, "livenessProbe"), "tcpSocket")).containsEntry("port", "http");
    assertThat(containerPorts()).containsKey("http");
    String healthcheck = String.join(" ", DockerHealthcheckIT.command(image));
    assertThat(healthcheck).contains("GET /healthcheck ");
  }

  /** uid 65534, read-only root, no capability: runs because the image writes nothing. */
  @Test
  void securityContext_isEnvoyGatewaysDefault_withNoWritableVolume() {
    assertThat(map(container, "securityContext"))
        .containsExactlyInAnyOrderEntriesOf(ENVOY_GATEWAY_SECURITY_CONTEXT);
    for (Map<String, Object> volume : list(map(pod, "spec"), "volumes")) {
      assertThat(volume.keySet()).as("volume kinds").containsOnly("name", "configMap");
    }
    assertThat(list(container, "volumeMounts"))
        .allMatch(mount -> Boolean.TRUE.equals(mount.get("readOnly")));
    String user = image.only("USER").arguments().trim().split(":")[0];
    assertThat(user).as("numeric, so runAsNonRoot can be checked").matches("[1-9]\\d*");
  }

  @Test
  void environment_onlyServesVariables_withValuesItTakes() {
    Map<String, String> env = new LinkedHashMap<>();
    for (Map<String, Object> variable : list(container, "env")) {
      env.put((String) variable.get("name"), String.valueOf(variable.get("value")));
    }
    Set<String> read = serveEnvironmentVariables();

    assertThat(env.keySet()).allMatch(read::contains, "read by a serve option or by logging");
    CommandLine commandLine = new CommandLine(new Main());
    commandLine.setDefaultValueProvider(ReferenceEnvironment.of(env));
    CommandLine.ParseResult serve = commandLine.parseArgs("serve").subcommand();
    assertThat(serve.commandSpec().findOption("--store").getValue().toString())
        .isEqualToIgnoringCase("redis");
  }

  /** The ConfigMap is mounted where serve reads rules by default, and the loader takes it. */
  @Test
  void rules_mountedWhereServeLooks_loadAsValidRules() throws IOException {
    Map<String, Object> mount = only(list(container, "volumeMounts"));
    Map<String, Object> volume = only(list(map(pod, "spec"), "volumes"));
    Map<String, Object> configMap = byKind.get("ConfigMap");

    assertThat(mount.get("mountPath"))
        .isEqualTo(image.workdir() + "/" + SluiceCommandLine.serveDefault("--config"));
    assertThat(mount.get("name")).isEqualTo(volume.get("name"));
    assertThat(map(volume, "configMap").get("name"))
        .isEqualTo(map(configMap, "metadata").get("name"));
    Map<String, Object> files = map(configMap, "data");
    for (var file : files.entrySet()) {
      Files.writeString(tmp.resolve(file.getKey()), (String) file.getValue());
    }
    LoadResult result = new RuleLoader(Algorithm.FIXED_WINDOW).load(tmp);
    assertThat(result).isInstanceOf(LoadResult.Loaded.class);
    assertThat(((LoadResult.Loaded) result).rules().rules()).isNotEmpty();
  }

  @Test
  void serviceAndDisruptionBudget_selectTheDeploymentsPods() {
    Map<String, Object> labels = map(map(pod, "metadata"), "labels");
    Map<String, Object> service = map(byKind.get("Service"), "spec");
    Map<String, Object> budget = map(byKind.get("PodDisruptionBudget"), "spec");
    int replicas = (Integer) map(byKind.get("Deployment"), "spec").get("replicas");

    assertThat(labels).containsAllEntriesOf(map(service, "selector"));
    assertThat(labels).containsAllEntriesOf(map(map(budget, "selector"), "matchLabels"));
    for (Map<String, Object> port : list(service, "ports")) {
      assertThat(containerPorts()).containsKey((String) port.get("targetPort"));
      assertThat(port.get("port")).isEqualTo(containerPorts().get(port.get("targetPort")));
    }
    assertThat((Integer) budget.get("maxUnavailable")).isPositive().isLessThan(replicas);
  }

  private Map<String, Integer> containerPorts() {
    Map<String, Integer> ports = new HashMap<>();
    for (Map<String, Object> port : list(container, "ports")) {
      ports.put((String) port.get("name"), (Integer) port.get("containerPort"));
    }
    return ports;
  }

  /** The SLUICE_* twins serve's options name, and the two logging reads before picocli. */
  private static Set<String> serveEnvironmentVariables() {
    List<String> names = new ArrayList<>(List.of("SLUICE_LOG_LEVEL", "SLUICE_LOG_FORMAT"));
    SettingOptions.serve().forEach(setting -> names.add(setting.env()));
    return Set.copyOf(names);
  }

  private static Map<String, Map<String, Object>> load() {
    Map<String, Map<String, Object>> byKind = new HashMap<>();
    Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
    try (Stream<Path> files = Files.list(DIR)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        for (Object document : yaml.loadAll(Files.readString(file))) {
          Map<String, Object> resource = (Map<String, Object>) document;
          assertThat(byKind.put((String) resource.get("kind"), resource))
              .as(file + ": one per kind")
              .isNull();
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return byKind;
  }

  private static Map<String, Object> map(Map<String, Object> parent, String key) {
    Object value = parent.get(key);
    assertThat(value).as(key).isInstanceOf(Map.class);
    return (Map<String, Object>) value;
  }

  private static List<Map<String, Object>> list(Map<String, Object> parent, String key) {
    Object value = parent.get(key);
    assertThat(value).as(key).isInstanceOf(List.class);
    return (List<Map<String, Object>>) value;
  }

  private static Map<String, Object> only(List<Map<String, Object>> items) {
    assertThat(items).hasSize(1);
    return items.get(0);
  }
}
