package dev.sluice.admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * The one access check of the admin API, for every transport. Writes need the bearer token from
 * {@code --admin-token-file}; without a token file, or with {@code --admin-read-only}, they are
 * refused whatever the caller sends. Reads need the token only with {@code
 * --admin-token-for-reads}. Immutable and thread-safe.
 */
public final class AdminAccess {
  static final String HOW_TO_ENABLE =
      "admin writes are disabled: start Sluice with --admin-token-file FILE"
          + " (env SLUICE_ADMIN_TOKEN_FILE) and send 'Authorization: Bearer <token>'";

  /** What a call does, for the check. */
  public enum Kind {
    READ,
    WRITE
  }

  // SHA-256 of the token, so comparing is constant-time whatever the lengths of the two tokens.
  private final Optional<byte[]> tokenDigest;
  private final boolean tokenForReads;
  private final boolean readOnly;

  private AdminAccess(Optional<byte[]> tokenDigest, boolean tokenForReads, boolean readOnly) {
    this.tokenDigest = tokenDigest;
    this.tokenForReads = tokenForReads;
    this.readOnly = readOnly;
  }

  /**
   * @param token the configured token; empty = writes disabled
   * @throws IllegalArgumentException when {@code tokenForReads} is set without a token
   */
  public static AdminAccess of(Optional<String> token, boolean tokenForReads, boolean readOnly) {
    if (tokenForReads && token.isEmpty()) {
      throw new IllegalArgumentException("--admin-token-for-reads needs --admin-token-file");
    }
    return new AdminAccess(token.map(AdminAccess::digest), tokenForReads, readOnly);
  }

  /**
   * Reads the token: the file's first line, trimmed.
   *
   * @throws IllegalArgumentException naming the file when it cannot be read or holds no token
   */
  public static String readTokenFile(Path file) {
    String token;
    try {
      token = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read admin token file " + file + ": " + e, e);
    }
    if (token.isEmpty() || token.contains("\n")) {
      throw new IllegalArgumentException(
          "admin token file " + file + " must hold one non-empty line");
    }
    return token;
  }

  /** Returns normally when {@code caller} may do a call of {@code kind}; else throws. */
  void check(Caller caller, Kind kind) {
    if (kind == Kind.READ && !tokenForReads) {
      return;
    }
    if (tokenDigest.isEmpty()) {
      throw new AdminDenied(AdminDenied.Reason.PERMISSION_DENIED, HOW_TO_ENABLE);
    }
    if (caller.bearerToken().isEmpty()) {
      throw new AdminDenied(
          AdminDenied.Reason.UNAUTHENTICATED,
          "admin token required: send 'Authorization: Bearer <token>'");
    }
    if (!MessageDigest.isEqual(tokenDigest.get(), digest(caller.bearerToken().get()))) {
      throw new AdminDenied(AdminDenied.Reason.UNAUTHENTICATED, "wrong admin token");
    }
    if (kind == Kind.WRITE && readOnly) {
      throw new AdminDenied(
          AdminDenied.Reason.PERMISSION_DENIED, "admin is read-only (--admin-read-only)");
    }
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
