package dev.sluice.testing;

import dev.sluice.threads.DaemonThreadFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged {@code target/sluice.jar} run as a process, for attack tests that need a small heap
 * or a resource limit: JVM flags and, optionally, a file-size limit ({@code ulimit -f}, so writes
 * past it fail with EFBIG as on a full disk). Its stdout and stderr are copied by two threads of
 * this process into files under {@code dir}; that way the limit applies to what Sluice writes and
 * not to its own output, and a chatty process never blocks on a full pipe. No {@code SLUICE_*}
 * variable of this environment reaches it. {@link #close} kills it.
 */
public final class JarProcess implements AutoCloseable {
  private static final Path BASEDIR = Path.of("").toAbsolutePath();
  private static final Path JAR = BASEDIR.resolve("target/sluice.jar");
  private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
  private static final DaemonThreadFactory THREADS = new DaemonThreadFactory("jar-output");
  private static final Pattern READY =
      Pattern.compile("Sluice ready: grpc port (\\d+), http port (\\d+)");

  /**
   * How to start it.
   *
   * @param jvmFlags before {@code -jar}, e.g. {@code -Xmx128m}
   * @param fileSizeLimitKib the largest file it may write, KiB; 0 for no limit
   */
  public record Launch(List<String> jvmFlags, long fileSizeLimitKib) {
    public Launch {
      jvmFlags = List.copyOf(jvmFlags);
    }

    public static Launch of(String... jvmFlags) {
      return new Launch(List.of(jvmFlags), 0);
    }
  }

  private final Process process;
  private final Path stdout;
  private final Path stderr;
  private final List<Thread> pumps = new ArrayList<>();

  private JarProcess(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Starts {@code java FLAGS -jar target/sluice.jar ARGS} with its output under {@code dir}. */
  public static JarProcess start(Path dir, Launch launch, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    if (launch.fileSizeLimitKib() > 0) {
      // bash's ulimit -f counts 1024-byte blocks; exec keeps the limit and the process id.
      command.addAll(
          List.of("bash", "-c", "ulimit -f " + launch.fileSizeLimitKib() + " && exec \"$@\"", "-"));
    }
    command.add(JAVA);
    command.addAll(launch.jvmFlags());
    command.addAll(List.of("-jar", JAR.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(BASEDIR.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("SLUICE_"));
    Path out = Files.createTempFile(dir, "stdout-", ".txt");
    Path err = Files.createTempFile(dir, "stderr-", ".txt");
    JarProcess started = new JarProcess(builder.start(), out, err);
    started.pump(started.process.getInputStream(), out);
    started.pump(started.process.getErrorStream(), err);
    return started;
  }

  private void pump(InputStream from, Path to) {
    Thread thread =
        THREADS.newThread(
            () -> {
              try (InputStream in = from;
                  OutputStream file = Files.newOutputStream(to)) {
                byte[] buffer = new byte[8192];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                  file.write(buffer, 0, n);
                  file.flush();
                }
              } catch (IOException e) {
                // The process ended or was killed: what was read is in the file.
              }
            });
    thread.start();
    pumps.add(thread);
  }

  /** Waits for the process to end by itself and for its output to be copied; its exit code. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("still running after " + timeout + ":\n" + stdout() + stderr());
    }
    for (Thread pump : pumps) {
      pump.join(timeout.toMillis());
    }
    return process.exitValue();
  }

  /** The ready line's match: group 1 the gRPC port, group 2 the HTTP port. */
  public Matcher awaitReady(Duration timeout) {
    Eventually.await(
        timeout,
        "the ready line",
        () -> {
          if (!process.isAlive() && !READY.matcher(stdout()).find()) {
            throw new AssertionError("exited before ready:\n" + stdout() + stderr());
          }
          return READY.matcher(stdout()).find();
        });
    Matcher ready = READY.matcher(stdout());
    ready.find();
    return ready;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public String stdout() {
    return read(stdout);
  }

  public String stderr() {
    return read(stderr);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }
}
