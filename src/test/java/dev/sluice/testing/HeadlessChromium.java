package dev.sluice.testing;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real headless Chromium (Debian's {@code chromium} package) driven over the Chrome DevTools
 * protocol with the JDK's own HTTP and WebSocket clients, so a browser test needs no Node.js and no
 * extra dependency. Each instance has a fresh profile directory, removed on close.
 */
public final class HeadlessChromium implements AutoCloseable {
  /** Where {@code .ci/run} installs it: {@code apt-get install chromium}. */
  public static final Path BINARY = Path.of("/usr/bin/chromium");

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final Path profile;
  private final Process process;
  private final HttpClient http = HttpClient.newHttpClient();
  private final int port;

  private HeadlessChromium(Path profile, Process process, int port) {
    this.profile = profile;
    this.process = process;
    this.port = port;
  }

  /**
   * Starts Chromium with a fresh profile and a debugging port chosen by Chromium itself.
   *
   * @throws AssertionError when the binary is missing (install it: {@code apt-get install
   *     chromium}) or the browser does not come up
   */
  public static HeadlessChromium start() throws IOException {
    if (!Files.isExecutable(BINARY)) {
      throw new AssertionError(BINARY + " is missing: apt-get install -y chromium (see .ci/run)");
    }
    Path profile = Files.createTempDirectory("sluice-chromium");
    Process process =
        new ProcessBuilder(
                BINARY.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=1280,1000",
                "--user-data-dir=" + profile,
                "--remote-debugging-port=0",
                "about:blank")
            .redirectErrorStream(true)
            .redirectOutput(profile.resolveSibling(profile.getFileName() + ".log").toFile())
            .start();
    Path portFile = profile.resolve("DevToolsActivePort");
    Eventually.await(
        TIMEOUT, "chromium to write " + portFile, () -> readable(portFile) || !process.isAlive());
    if (!process.isAlive()) {
      throw new AssertionError("chromium exited with " + process.exitValue());
    }
    int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
    return new HeadlessChromium(profile, process, port);
  }

  private static boolean readable(Path portFile) {
    try {
      return Files.exists(portFile) && !Files.readAllLines(portFile).isEmpty();
    } catch (IOException e) {
      return false;
    }
  }

  /** Opens {@code url} in a new tab and returns a session on it. */
  public Page open(String url) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:"
                        + port
                        + "/json/new?"
                        + URLEncoder.encode(url, StandardCharsets.UTF_8)))
            .PUT(HttpRequest.BodyPublishers.noBody())
            .timeout(TIMEOUT)
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new AssertionError("chromium refused a new tab: " + response.body());
    }
    String socket =
        JsonParser.parseString(response.body())
            .getAsJsonObject()
            .get("webSocketDebuggerUrl")
            .getAsString();
    Page page = new Page();
    http.newWebSocketBuilder().buildAsync(URI.create(socket), page).get(30, TimeUnit.SECONDS);
    return page;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> files = Files.walk(profile)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One tab: DevTools commands answered by id. */
  public static final class Page implements WebSocket.Listener {
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
    private final StringBuilder frame = new StringBuilder();
    private volatile WebSocket socket;

    @Override
    public void onOpen(WebSocket webSocket) {
      socket = webSocket;
      webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      frame.append(data);
      if (last) {
        JsonObject message = JsonParser.parseString(frame.toString()).getAsJsonObject();
        frame.setLength(0);
        if (message.has("id")) {
          CompletableFuture<JsonObject> answer = pending.remove(message.get("id").getAsInt());
          if (answer != null) {
            answer.complete(message);
          }
        }
      }
      webSocket.request(1);
      return null;
    }

    /** Sends one DevTools command and waits for its result. */
    public JsonObject call(String method, JsonObject params) {
      int id = ids.incrementAndGet();
      CompletableFuture<JsonObject> answer = new CompletableFuture<>();
      pending.put(id, answer);
      JsonObject command = new JsonObject();
      command.addProperty("id", id);
      command.addProperty("method", method);
      command.add("params", params);
      socket.sendText(command.toString(), true);
      JsonObject message = answer.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
      if (message.has("error")) {
        throw new AssertionError(method + " failed: " + message.get("error"));
      }
      return message.getAsJsonObject("result");
    }

    /** The value of a JavaScript expression in the page (JSON-compatible values only). */
    public JsonElement evaluate(String expression) {
      JsonObject params = new JsonObject();
      params.addProperty("expression", expression);
      params.addProperty("returnByValue", true);
      JsonObject result = call("Runtime.evaluate", params);
      if (result.has("exceptionDetails")) {
        throw new AssertionError("script failed: " + result.get("exceptionDetails"));
      }
      return result.getAsJsonObject("result").get("value");
    }

    /** Writes a PNG of the whole page. */
    public void screenshot(Path file) throws IOException {
      JsonObject params = new JsonObject();
      params.addProperty("format", "png");
      params.addProperty("captureBeyondViewport", true);
      String data = call("Page.captureScreenshot", params).get("data").getAsString();
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.write(file, Base64.getDecoder().decode(data));
    }
  }
}
