package dev.sluice.admin;

import java.util.Optional;

/**
 * Decides from a request's line and headers alone, before its body is read, whether its route may
 * see it, so a caller refused learns nothing from how its body is treated (not even that it is too
 * large). Runs on the server's I/O threads: it must not block.
 */
@FunctionalInterface
public interface AdminGate {
  /** Lets every request through. */
  AdminGate OPEN = request -> Optional.empty();

  /**
   * @param request the request with an empty body
   * @return empty to go on; else the answer that refuses it
   */
  Optional<AdminResponse> refusal(AdminRequest request);
}
