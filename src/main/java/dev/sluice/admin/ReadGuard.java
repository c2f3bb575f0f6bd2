package dev.sluice.admin;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@link AdminApi}'s read check as the gate of an admin HTTP route: open unless {@code
 * --admin-token-for-reads}. In front of the endpoints outside the admin API itself ({@code
 * /healthcheck}, {@code /metrics}, {@code /json}, {@code /ui/data}) it is the only check; in front
 * of {@code /explain} it refuses a caller without the token before the body is read.
 */
public final class ReadGuard implements AdminGate {
  private final AdminApi api;

  public ReadGuard(AdminApi api) {
    this.api = api;
  }

  @Override
  public Optional<AdminResponse> refusal(AdminRequest request) {
    CompletableFuture<Void> check = api.authorizeRead(request.caller());
    try {
      // AdminApi.authorizeRead compares tokens and answers before returning: join never waits.
      check.join();
      return Optional.empty();
    } catch (CompletionException e) {
      return Optional.of(AdminResponse.failure(AdminFailure.of(e)));
    }
  }
}
