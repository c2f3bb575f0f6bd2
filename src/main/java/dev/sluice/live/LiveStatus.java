package dev.sluice.live;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the live page shows besides the traffic: the store and the rules, read fresh for each page
 * refresh.
 *
 * @param storeUp the store answers (the circuit breaker is not open)
 * @param breaker the circuit breaker's state, e.g. {@code CLOSED}
 * @param failureMode the {@code --failure-mode} answering while the store is down
 * @param reloadProblems {@code file:line: message} of the last rejected reload; empty when the
 *     newest files are the ones served
 */
public record LiveStatus(
    String storeKind,
    boolean storeUp,
    String breaker,
    String storeError,
    String failureMode,
    String rulesVersion,
    Instant rulesLoadedAt,
    List<String> reloadProblems,
    Optional<Instant> reloadErrorAt) {
  public LiveStatus {
    Objects.requireNonNull(storeKind, "storeKind");
    Objects.requireNonNull(breaker, "breaker");
    storeError = storeError == null ? "" : storeError;
    Objects.requireNonNull(failureMode, "failureMode");
    Objects.requireNonNull(rulesVersion, "rulesVersion");
    Objects.requireNonNull(rulesLoadedAt, "rulesLoadedAt");
    reloadProblems = List.copyOf(reloadProblems);
    Objects.requireNonNull(reloadErrorAt, "reloadErrorAt");
  }
}
