package dev.sluice.config;

import java.util.Objects;

/**
 * A value that must never reach a log line or an error message: a password, later a token. Its
 * {@link #toString} is {@code ***}, so a record holding one (and a tree of records) can be logged
 * whole. Only the code that hands it to a client library calls {@link #reveal}.
 */
public final class Secret {
  private final String value;

  private Secret(String value) {
    this.value = Objects.requireNonNull(value, "secret");
  }

  public static Secret of(String value) {
    return new Secret(value);
  }

  /** The value itself, for the one call that needs it (e.g. Redis AUTH). */
  public String reveal() {
    return value;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Secret secret && secret.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return "***";
  }
}
