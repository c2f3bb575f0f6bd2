package dev.sluice.deploy;

import dev.sluice.deploy.Dockerfile.Instruction;
import dev.sluice.deploy.Dockerfile.Stage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The files the Dockerfile's final stage adds to its base image, laid out in a directory as they
 * would sit in the image, without Docker: its {@code COPY} lines applied in order. {@code
 * --from=build} sources come from a replay of the build stage's steps after {@code mvn package}
 * (e.g. {@code native-libs.sh}) run on this checkout's {@code target/sluice.jar}, so the image's
 * extra build steps are the ones tested. A destination under a directory the base image has as a
 * symbolic link ({@code /bin} is {@code usr/bin} on a merged-/usr system such as the base's Ubuntu)
 * lands where the link points, as it would in the image.
 */
final class ImageLayer {
  private static final Path CONTEXT = Path.of("").toAbsolutePath();
  private static final Path JAR = CONTEXT.resolve("target/sluice.jar");

  private ImageLayer() {}

  /**
   * Lays the final stage's files out under {@code root} (which stands for the image's {@code /}),
   * using {@code scratch} for the build-stage replay.
   */
  static void layOut(Dockerfile docker, Path root, Path scratch) throws Exception {
    Stage build = docker.stage("build");
    Path buildDir = scratch.resolve(build.workdir().replaceFirst("^/", ""));
    Path jarLink = replayAfterPackage(build, buildDir);
    try {
      copyFinalStage(docker, root, buildDir);
    } finally {
      Files.delete(jarLink); // so that deleting the scratch directory leaves the jar alone
    }
  }

  private static void copyFinalStage(Dockerfile docker, Path root, Path buildDir)
      throws IOException {
    Stage build = docker.stage("build");
    DockerContext context = DockerContext.of(CONTEXT);
    for (Instruction copy : docker.finalStage().all("COPY")) {
      List<String> words = new ArrayList<>(copy.words());
      String destination = words.remove(words.size() - 1);
      Path target = inImage(root, destination);
      if (words.get(0).equals("--from=build")) {
        Path source = buildDir.resolve(Path.of(build.workdir()).relativize(Path.of(words.get(1))));
        copyTree(source, target);
      } else {
        words.add(target.toString());
        context.copy(words, root);
      }
    }
  }

  /** Where {@code imagePath} lands under {@code root}, following the base's links such as /bin. */
  static Path inImage(Path root, String imagePath) {
    Path resolved = Path.of("/");
    for (Path part : Path.of(imagePath)) {
      Path next = resolved.resolve(part);
      resolved = Files.isSymbolicLink(next) ? resolveLink(next) : next;
    }
    return root.resolve(Path.of("/").relativize(resolved).toString());
  }

  private static Path resolveLink(Path link) {
    try {
      return link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
    } catch (IOException e) {
      throw new AssertionError("cannot read link " + link, e);
    }
  }

  /**
   * The build stage's steps after {@code mvn ... package}, on a link to this checkout's jar: the
   * {@code COPY} lines from the context, the {@code RUN} lines with bash, as the image build runs
   * them. Returns the link.
   */
  private static Path replayAfterPackage(Stage build, Path buildDir) throws Exception {
    Files.createDirectories(buildDir.resolve("target"));
    Path link = Files.createSymbolicLink(buildDir.resolve("target/sluice.jar"), JAR);
    DockerContext context = DockerContext.of(CONTEXT);
    boolean packaged = false;
    for (Instruction instruction : build.instructions()) {
      String arguments = instruction.arguments();
      if (!packaged) {
        packaged = instruction.keyword().equals("RUN") && arguments.matches("mvn .*\\bpackage");
      } else if (instruction.keyword().equals("COPY")) {
        context.copy(instruction.words(), buildDir);
      } else if (instruction.keyword().equals("RUN")) {
        run(arguments, buildDir);
      }
    }
    if (!packaged) {
      throw new AssertionError("no 'RUN mvn ... package' in the build stage");
    }
    return link;
  }

  private static void run(String command, Path dir) throws Exception {
    Path log = dir.resolve("run.log");
    ProcessBuilder builder =
        new ProcessBuilder("bash", "-c", command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    withJdkTools(builder);
    Process process = builder.start();
    if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new AssertionError("build step '" + command + "' failed:\n" + Files.readString(log));
    }
  }

  /** The build image is a JDK: its tools ({@code jar}) are on PATH there, so put ours first. */
  static void withJdkTools(ProcessBuilder builder) {
    String bin = Path.of(System.getProperty("java.home"), "bin").toString();
    builder.environment().merge("PATH", bin, (path, jdk) -> jdk + ":" + path);
  }

  private static void copyTree(Path source, Path target) throws IOException {
    try (var files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path to = target.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(to);
        } else {
          Files.createDirectories(to.getParent());
          Files.copy(file, to);
        }
      }
    }
  }
}
