package dev.sluice.live;

import dev.sluice.admin.AdminRequest;
import dev.sluice.admin.AdminResponse;
import dev.sluice.admin.AdminRoute;
import dev.sluice.rlqs.RlqsSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET /ui}: the live page, one self-contained HTML file (inline script and style, no
 * external assets, so it works on a machine without internet). {@code GET /ui/data}: what the page
 * polls, as JSON, for tools too. The composition root puts {@code /ui/data} behind the admin read
 * guard; the page then asks for the token and sends it as a bearer header (see {@code live.html}).
 */
public final class LiveHandler implements AdminRoute {
  private static final String PAGE_RESOURCE = "live.html";

  private final LiveStats stats;
  private final Supplier<LiveStatus> status;
  private final Supplier<Optional<RlqsSnapshot>> rlqs;
  private final byte[] page;

  /**
   * @param rlqs the RLQS service's state, read for each refresh; empty when it is off
   */
  public LiveHandler(
      LiveStats stats, Supplier<LiveStatus> status, Supplier<Optional<RlqsSnapshot>> rlqs) {
    this.stats = stats;
    this.status = status;
    this.rlqs = rlqs;
    this.page = readPage();
  }

  private static byte[] readPage() {
    try (InputStream in = LiveHandler.class.getResourceAsStream(PAGE_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + PAGE_RESOURCE);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public AdminResponse answer(AdminRequest request) {
    if (!request.isMethod("GET")) {
      return noStore(AdminResponse.methodNotAllowed("GET"));
    }
    return noStore(
        switch (request.path()) {
          case "/ui", "/ui/" -> AdminResponse.of(200, "text/html; charset=utf-8", page);
          case "/ui/data" ->
              AdminResponse.of(
                  200,
                  AdminResponse.JSON,
                  LiveJson.of(stats.snapshot(), status.get(), rlqs.get())
                      .getBytes(StandardCharsets.UTF_8));
          default -> AdminResponse.notFound();
        });
  }

  private static AdminResponse noStore(AdminResponse response) {
    return response.withHeader("Cache-Control", "no-store");
  }
}
