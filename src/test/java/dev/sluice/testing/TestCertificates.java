package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A throw-away certificate authority and certificates it signs, made with {@code openssl} in a
 * directory: PEM files, keys unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}), valid for two days.
 */
public final class TestCertificates {
  private final Path openssl;
  private final Path dir;

  /** Creates the CA ({@code ca.crt}, {@code ca.key}) in {@code dir}. */
  public TestCertificates(Path dir) {
    this.openssl = RedisTools.require("openssl");
    this.dir = dir;
    run(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-keyout",
        dir.resolve("ca.key").toString(),
        "-out",
        ca().toString(),
        "-subj",
        "/CN=sluice test CA");
  }

  public Path ca() {
    return dir.resolve("ca.crt");
  }

  /**
   * Issues {@code NAME.crt} and {@code NAME.key}.
   *
   * @param subjectAltNames e.g. {@code DNS:localhost,IP:127.0.0.1}
   * @return the certificate; the key is beside it ({@link #keyOf})
   */
  public Path issue(String name, String subjectAltNames) {
    Path key = dir.resolve(name + ".key");
    Path csr = dir.resolve(name + ".csr");
    Path cert = dir.resolve(name + ".crt");
    Path ext = dir.resolve(name + ".ext");
    try {
      Files.writeString(ext, "subjectAltName=" + subjectAltNames + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    run(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key.toString(),
        "-out",
        csr.toString(),
        "-subj",
        "/CN=" + name);
    run(
        "x509",
        "-req",
        "-in",
        csr.toString(),
        "-CA",
        ca().toString(),
        "-CAkey",
        dir.resolve("ca.key").toString(),
        "-CAcreateserial",
        "-days",
        "2",
        "-out",
        cert.toString(),
        "-extfile",
        ext.toString());
    return cert;
  }

  /**
   * The key of {@code cert} rewritten as PKCS#1 ({@code BEGIN RSA PRIVATE KEY}), the form Go's
   * {@code x509.MarshalPKCS1PrivateKey} and so Envoy Gateway's certificates use: {@code
   * NAME.pkcs1.key}.
   */
  public Path pkcs1KeyOf(Path cert) {
    Path pkcs1 = keyOf(cert).resolveSibling(name(cert) + ".pkcs1.key");
    run("rsa", "-in", keyOf(cert).toString(), "-traditional", "-out", pkcs1.toString());
    return pkcs1;
  }

  /** A new EC P-256 key in OpenSSL's traditional form ({@code BEGIN EC PRIVATE KEY}). */
  public Path ecKey(String name) {
    Path key = dir.resolve(name + ".ec.key");
    run("ecparam", "-genkey", "-name", "prime256v1", "-noout", "-out", key.toString());
    return key;
  }

  /** {@code key} (any form) as PKCS#8 ({@code BEGIN PRIVATE KEY}): {@code NAME.pk8}. */
  public Path pkcs8Of(Path key) {
    Path pkcs8 = key.resolveSibling(key.getFileName() + ".pk8");
    run("pkcs8", "-topk8", "-nocrypt", "-in", key.toString(), "-out", pkcs8.toString());
    return pkcs8;
  }

  private static String name(Path cert) {
    String file = cert.getFileName().toString();
    return file.substring(0, file.length() - ".crt".length());
  }

  public static Path keyOf(Path cert) {
    String name = cert.getFileName().toString();
    return cert.resolveSibling(name.substring(0, name.length() - ".crt".length()) + ".key");
  }

  private void run(String... args) {
    RedisTools.run(openssl, List.of(args));
  }
}
