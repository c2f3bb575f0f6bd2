package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ServerSettings;
import dev.sluice.config.Setting;
import dev.sluice.deploy.Dockerfile.Instruction;
import dev.sluice.deploy.Dockerfile.Stage;
import java.io.IOException;
import java.io.UncheckedIOException;
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

  static final String JVM_OPTIONS = "/app/jvm.options";
  static final String NATIVE_DIR = "/app/native";
  static final String RATELIMIT = "/bin/ratelimit";

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
  void finalStage_copiesTheBuiltJar_andRunsItWithTheImagesJvmSettings() throws Exception {
    String jar = "target/" + pomFinalName() + ".jar";
    Instruction copyJar = run.all("COPY").get(0);

    assertThat(copyJar.words())
        .containsExactly("--from=build", build.workdir() + "/" + jar, "/app/sluice.jar");
    assertThat(run.only("ENTRYPOINT").execForm())
        .containsExactly("java", "@" + JVM_OPTIONS, "-jar", "/app/sluice.jar");
    assertThat(run.only("CMD").execForm()).containsExactly("serve");
    assertThat(jvmOptions(run))
        .contains("-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-XX:+UseG1GC");
  }

  /**
   * Nothing is written at run time: performance counters stay in memory, and Netty finds its native
   * libraries where the build stage put them instead of extracting them to /tmp.
   */
  @Test
  void jvmSettings_loadNativeLibrariesFromTheImage_andKeepPerfDataInMemory() {
    assertThat(jvmOptions(run))
        .contains("-XX:+PerfDisableSharedMem", "-Djava.library.path=" + NATIVE_DIR);
    assertThat(run.copyTo(NATIVE_DIR).words())
        .containsExactly("--from=build", build.workdir() + "/target/native", NATIVE_DIR);
    assertThat(build.all("RUN").stream().map(Instruction::arguments))
        .contains("sh deploy/image/native-libs.sh target/sluice.jar target/native");
  }

  @Test
  void finalStage_holdsTheJarItsNativeLibrariesTheDefaultRulesAndTheLaunchers() {
    String rules = run.workdir() + "/" + SluiceCommandLine.serveDefault("--config");

    assertThat(run.all("ADD")).isEmpty();
    assertThat(run.all("COPY").stream().map(copy -> copy.words().get(copy.words().size() - 1)))
        .containsExactly("/app/sluice.jar", NATIVE_DIR, rules, JVM_OPTIONS, RATELIMIT);
    assertThat(run.copyTo(rules).words()).containsExactly("config/rules", rules);
    assertThat(rules).isEqualTo("/app/config/rules");
    assertThat(Path.of("config/rules")).isDirectory();
  }

  /**
   * Envoy Gateway's command, {@code /bin/ratelimit}, runs what {@code ENTRYPOINT} + {@code CMD}
   * run, then the arguments it is given ({@code RatelimitLauncherIT} runs it).
   */
  @Test
  void ratelimitLauncher_execsTheEntrypointWithServe() throws IOException {
    Path launcher = launcherSource(run);
    List<String> execLines =
        Files.readAllLines(launcher).stream().filter(line -> line.startsWith("exec ")).toList();
    List<String> startsWith = new ArrayList<>(run.only("ENTRYPOINT").execForm());
    startsWith.addAll(run.only("CMD").execForm());

    assertThat(Files.readString(launcher)).startsWith("#!/bin/sh\n");
    assertThat(Files.isExecutable(launcher)).as("mode 755 in git").isTrue();
    assertThat(execLines).containsExactly("exec " + String.join(" ", startsWith) + " \"$@\"");
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
    Setting<Integer> httpPort = ServerSettings.HTTP_PORT;

    assertThat(script).contains("GET /healthcheck ").contains("' 200 '");
    assertThat(httpPort.env() + ":-" + httpPort.defaultText().orElseThrow())
        .isEqualTo("SLUICE_HTTP_PORT:-8080");
    assertThat(script).contains("/dev/tcp/127.0.0.1/${SLUICE_HTTP_PORT:-8080}");
  }

  @Test
  void dockerignore_keepsBuildOutputAndGitOut() throws IOException {
    assertThat(dockerignore()).contains("target/", ".git");
  }

  /** The file the stage copies to {@code /bin/ratelimit}, in the repository. */
  static Path launcherSource(Stage stage) {
    return Path.of(stage.copyTo(RATELIMIT).words().get(0));
  }

  /**
   * The options in the argument file the stage copies to {@link #JVM_OPTIONS}, as java reads it:
   * whitespace-separated, {@code #} to the end of the line a comment.
   */
  static List<String> jvmOptions(Stage stage) {
    Path file = Path.of(stage.copyTo(JVM_OPTIONS).words().get(0));
    try {
      return Files.readAllLines(file).stream()
          .map(line -> line.replaceFirst("#.*", "").strip())
          .filter(line -> !line.isEmpty())
          .flatMap(line -> List.of(line.split("\\s+")).stream())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
