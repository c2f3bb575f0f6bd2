package dev.sluice.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A container as Kubernetes runs one under Envoy Gateway's default security context, built from
 * Linux pieces instead of a container runtime: a private mount namespace ({@code unshare}), a root
 * directory mounted read-only and {@code chroot}ed into, uid and gid 65534 without supplementary
 * groups, every capability dropped (bounding set included) and no_new_privs ({@code setpriv}). No
 * directory is writable but the kernel's {@code /proc}, {@code /dev} and {@code /sys}, as there.
 *
 * <p>The image's base is this machine's: {@code /usr} (with {@code /bin}, {@code /lib}, ... as they
 * are here; the base image's Ubuntu has the same merged-/usr links) and {@code /etc}, each under
 * the files the test puts there, like image layers (read-only overlays); and the JRE running this
 * test at the base image's {@code /opt/java/openjdk}. Everything else under {@link #root()} (the
 * image's files, the volumes) is the test's. Needs root; see {@link #unavailable()}.
 */
final class ReadOnlyContainer {
  /** The base image's (eclipse-temurin) JRE and its environment. */
  static final String JAVA_HOME = "/opt/java/openjdk";

  static final String PATH =
      JAVA_HOME + "/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  /** Envoy Gateway's runAsUser and runAsGroup. */
  static final int NOBODY = 65534;

  private static final List<String> BASE_LINKS = List.of("bin", "sbin", "lib", "lib32", "lib64");
  private static final List<String> KERNEL = List.of("proc", "dev", "sys");

  private final Path dir;
  private final Path root;

  private ReadOnlyContainer(Path dir) {
    this.dir = dir;
    this.root = dir.resolve("rootfs");
  }

  /** Why containers cannot be made here (not root, or no mount namespaces), or empty. */
  static Optional<String> unavailable() {
    if (!"0".equals(run("id", "-u").strip())) {
      return Optional.of("needs root (mount namespaces, chroot, setpriv to uid 65534)");
    }
    String probe = run("unshare", "--mount", "--propagation", "private", "true");
    return probe.isEmpty() ? Optional.empty() : Optional.of("'unshare --mount' fails: " + probe);
  }

  /** A new container in {@code dir}, nothing in it yet. */
  static ReadOnlyContainer in(Path dir) throws IOException {
    ReadOnlyContainer container = new ReadOnlyContainer(dir);
    Files.createDirectories(container.root);
    return container;
  }

  /** The container's {@code /}: the image's files and the volumes go here before {@link #start}. */
  Path root() {
    return root;
  }

  /** Writes {@code content} at {@code path} in the container, as a volume or a ConfigMap would. */
  void write(String path, String content) throws IOException {
    Path file = ImageLayer.inImage(root, path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  /** Copies {@code file} to {@code path} in the container (a Secret's key, say). */
  void copy(Path file, String path) throws IOException {
    write(path, Files.readString(file));
  }

  /**
   * Starts {@code command} in the container, in {@code workdir}, with exactly {@code env} (the base
   * image's and the Deployment's variables), its stdout and stderr to {@code log}. The returned
   * process is the command's own (the set-up steps {@code exec} into it).
   */
  Process start(List<String> command, String workdir, Map<String, String> env, Path log)
      throws IOException {
    Path script = dir.resolve("enter.sh");
    Files.writeString(script, String.join("\n", enter(command, workdir)) + "\n");
    ProcessBuilder builder =
        new ProcessBuilder(
                "unshare", "--mount", "--propagation", "private", "sh", script.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    return builder.start();
  }

  /** Moves the test's /usr and /etc files to layers, then the set-up commands as shell lines. */
  private List<String> enter(List<String> command, String workdir) throws IOException {
    Path usr = layer("usr");
    Path etc = layer("etc");
    Path javaHome = Path.of(System.getProperty("java.home"));
    List<String> lines = new ArrayList<>(List.of("set -eu"));
    lines.add("mount --bind " + q(root) + " " + q(root));
    lines.add(overlay(usr, "/usr"));
    lines.add(overlay(etc, "/etc"));
    for (String link : BASE_LINKS) {
      lines.addAll(baseLink(link));
    }
    lines.add("mount --bind -o ro " + q(javaHome) + " " + q(mountPoint(JAVA_HOME)));
    for (String kernel : KERNEL) {
      lines.add("mount --rbind /" + kernel + " " + q(mountPoint("/" + kernel)));
    }
    Files.createDirectories(mountPoint("/tmp"));
    readableByAll(root);
    lines.add("mount -o remount,bind,ro " + q(root));
    List<String> enter =
        new ArrayList<>(
            List.of(
                "exec chroot",
                q(root),
                "/usr/bin/env --chdir=" + q(Path.of(workdir)),
                "/usr/bin/setpriv --reuid=" + NOBODY + " --regid=" + NOBODY,
                "--clear-groups --bounding-set=-all --inh-caps=-all --no-new-privs --"));
    command.forEach(word -> enter.add(q(Path.of(word))));
    lines.add(String.join(" ", enter));
    return lines;
  }

  /** {@code root/<name>} moved aside as a layer (empty if the test put nothing there). */
  private Path layer(String name) throws IOException {
    Path layer = dir.resolve("layer-" + name);
    Path inRoot = root.resolve(name);
    if (Files.exists(inRoot)) {
      Files.move(inRoot, layer);
    } else {
      Files.createDirectories(layer);
    }
    readableByAll(layer);
    Files.createDirectories(inRoot);
    return layer;
  }

  private String overlay(Path layer, String base) {
    return "mount -t overlay overlay -o lowerdir=" + layer + ":" + base + " " + q(mountPoint(base));
  }

  /** The base's /bin, /lib, ...: the same link where this machine has one, else a bind mount. */
  private List<String> baseLink(String name) throws IOException {
    Path host = Path.of("/" + name);
    Path inRoot = root.resolve(name);
    if (Files.isSymbolicLink(host)) {
      Files.createSymbolicLink(inRoot, Files.readSymbolicLink(host));
      return List.of();
    }
    if (Files.isDirectory(host)) {
      Files.createDirectories(inRoot);
      return List.of("mount --rbind -o ro " + host + " " + q(inRoot));
    }
    return List.of();
  }

  private Path mountPoint(String path) {
    Path point = root.resolve(path.substring(1));
    try {
      Files.createDirectories(point);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return point;
  }

  /** uid 65534 reads what it needs: directories 755, files at least 644 (a Secret's default). */
  private static void readableByAll(Path top) throws IOException {
    try (Stream<Path> paths = Files.walk(top)) {
      for (Path path : paths.filter(p -> !Files.isSymbolicLink(p)).toList()) {
        boolean executable = Files.isDirectory(path) || Files.isExecutable(path);
        Files.setPosixFilePermissions(
            path, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
      }
    }
  }

  /** Single-quoted for sh. */
  private static String q(Path path) {
    return "'" + path.toString().replace("'", "'\\''") + "'";
  }

  /** Output of a short command, empty when it succeeded silently; its failure text otherwise. */
  private static String run(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return "timed out";
      }
      return process.exitValue() == 0 ? output : "exit " + process.exitValue() + ": " + output;
    } catch (IOException e) {
      return e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
