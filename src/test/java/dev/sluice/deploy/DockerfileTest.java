package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.deploy.Dockerfile.Instruction;
import dev.sluice.deploy.Dockerfile.Stage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

/** The {@code Dockerfile} builds what the README builds and runs it the way the code expects. */
class DockerfileTest {
  /** An image with a version tag such as {@code 7.4.2} or {@code v1.34.10}, maybe a variant. */
  static final Pattern PINNED = Pattern.compile("[\\w./-]+:v?\\d+\\.\\d+(\\.\\d+)?[\\w.-]*");

  /** {@code mvn}, its flags, then {@code package}: the package command wherever it is written. */
  private static final Pattern PACKAGE = Pattern.compile("mvn(?:\\s+-\\S+)*\\s+package\\b");

  private final Dockerfile docker = Dockerfile.load();
  private final Stage build = docker.stage("build");
  private final Stage run = docker.finalStage();

  @Test
  void baseImages_arePinnedToAVersion() {
    assertThat(docker.stages()).hasSize(2);
    for (Stage stage : docker.stages()) {
      assertThat(stage.image()).matches(PINNED).doesNotContain(":latest");
    }
    assertThat(build.image()).startsWith("maven:3.9.").contains("temurin-17");
    assertThat(run.image()).startsWith("eclipse-temurin:17.").contains("-jre");
  }

  /**
   * The README's and the image's package commands are the same but for {@code -B} (batch mode:
   * plain logs without colours or progress, no effect on what is built).
   */
  @Test
  void buildStage_packagesWithTheReadmeCommand() throws IOException {
    List<String> dockerCommands = new ArrayList<>();
    for (Instruction instruction : build.all("RUN")) {
      dockerCommands.addAll(packageCommands(instruction.arguments()));
    }
    Set<List<String>> readmeCommands =
        packageCommands(Files.readString(Path.of("README.md"))).stream()
            .map(DockerfileTest::withoutBatchMode)
            .collect(Collectors.toSet());

    assertThat(dockerCommands).containsExactly("mvn -B -q -DskipTests package");
    assertThat(readmeCommands).containsExactly(withoutBatchMode(dockerCommands.get(0)));
  }

  @Test
  void finalStage_copiesTheBuiltJar_andRunsIt() throws Exception {
    String jar = "target/" + pomFinalName() + ".jar";
    Instruction copyJar = run.all("COPY").get(0);

    assertThat(copyJar.words())
        .containsExactly("--from=build", build.workdir() + "/" + jar, "/app/sluice.jar");
    List<String> entrypoint = run.only("ENTRYPOINT").execForm();
    assertThat(entrypoint.get(0)).isEqualTo("java");
    assertThat(entrypoint).contains("-XX:MaxRAMPercentage=75");
    assertThat(entrypoint.subList(entrypoint.size() - 2, entrypoint.size()))
        .containsExactly("-jar", "/app/sluice.jar");
    assertThat(run.only("CMD").execForm()).containsExactly("serve");
  }

  @Test
  void finalStage_holdsOnlyTheJarAndTheDefaultRules_whereTheCodeLooks() {
    String rules = run.workdir() + "/" + SluiceCommandLine.serveDefault("--config");

    assertThat(run.all("ADD")).isEmpty();
    assertThat(run.all("COPY").stream().map(copy -> copy.words().get(copy.words().size() - 1)))
        .containsExactly("/app/sluice.jar", rules);
    assertThat(run.all("COPY").get(1).words()).containsExactly("config/rules", rules);
    assertThat(rules).isEqualTo("/app/config/rules");
    assertThat(Path.of("config/rules")).isDirectory();
  }

  @Test
  void finalStage_runsAsNonRootUser() {
    String user = run.only("USER").arguments().trim().split(":")[0];

    assertThat(user).isNotIn("root", "0");
  }

  @Test
  void expose_hasTheDefaultGrpcAndHttpPorts() {
    assertThat(run.only("EXPOSE").words())
        .containsExactlyInAnyOrder(
            String.valueOf(SluiceCommandLine.serveDefault("--grpc-port")),
            String.valueOf(SluiceCommandLine.serveDefault("--http-port")))
        .containsExactlyInAnyOrder("8081", "8080");
  }

  /**
   * {@code ${SLUICE_HTTP_PORT:-8080}} in the check is the option's own default, env twin and all.
   */
  @Test
  void healthcheck_getsHealthcheckOnTheAdminPort() {
    String script = String.join(" ", DockerHealthcheckIT.command(run));
    String httpPortDefault = SluiceCommandLine.rawServeDefault("--http-port");

    assertThat(script).contains("GET /healthcheck ").contains("' 200 '");
    assertThat(httpPortDefault).isEqualTo("${env:SLUICE_HTTP_PORT:-8080}");
    assertThat(script).contains("/dev/tcp/127.0.0.1/${SLUICE_HTTP_PORT:-8080}");
  }

  @Test
  void dockerignore_keepsBuildOutputAndGitOut() throws IOException {
    assertThat(dockerignore()).contains("target/", ".git");
  }

  private static List<String> packageCommands(String text) {
    List<String> commands = new ArrayList<>();
    Matcher matcher = PACKAGE.matcher(text);
    while (matcher.find()) {
      commands.add(matcher.group().replaceAll("\\s+", " "));
    }
    return commands;
  }

  private static List<String> withoutBatchMode(String command) {
    return List.of(command.split(" ")).stream().filter(word -> !word.equals("-B")).toList();
  }

  private static List<String> dockerignore() throws IOException {
    return Files.readAllLines(Path.of(".dockerignore")).stream()
        .map(String::strip)
        .filter(line -> !line.isEmpty() && !line.startsWith("#"))
        .toList();
  }

  private static String pomFinalName() throws Exception {
    var pom =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(Path.of("pom.xml").toFile());
    var build = pom.getDocumentElement().getElementsByTagName("build").item(0);
    var children = build.getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      if (children.item(i).getNodeName().equals("finalName")) {
        return children.item(i).getTextContent().trim();
      }
    }
    throw new AssertionError("no <build><finalName> in pom.xml");
  }
}
