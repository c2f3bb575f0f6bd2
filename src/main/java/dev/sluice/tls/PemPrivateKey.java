package dev.sluice.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * An unencrypted private key from a PEM file, in either form certificate tools write: PKCS#8
 * ({@code BEGIN PRIVATE KEY}: RSA, EC or Ed25519) or PKCS#1 ({@code BEGIN RSA PRIVATE KEY}: {@code
 * openssl genrsa -traditional}, Go's {@code x509.MarshalPKCS1PrivateKey} and so Envoy Gateway's own
 * certificates, cert-manager's default encoding). The JDK and grpc-java read PKCS#8 only, so a
 * PKCS#1 key is wrapped in a PKCS#8 envelope here; the RSA key inside is used as it is. Stateless.
 */
public final class PemPrivateKey {
  private static final String PKCS8 = "PRIVATE KEY";
  private static final String PKCS1 = "RSA PRIVATE KEY";

  /** PKCS#8's AlgorithmIdentifier for RSA: the rsaEncryption OID with NULL parameters. */
  private static final byte[] RSA_ALGORITHM =
      HexFormat.of().parseHex("300d06092a864886f70d0101010500");

  private PemPrivateKey() {}

  /**
   * Reads the first private key in {@code pem}.
   *
   * @throws IllegalArgumentException naming the file when it cannot be read, holds no key in either
   *     form (an encrypted or an {@code EC PRIVATE KEY} one, say how to convert it), or the key
   *     does not parse
   */
  public static PrivateKey read(Path pem) {
    String text;
    try {
      text = Files.readString(pem);
    } catch (IOException e) {
      throw new IllegalArgumentException(pem + ": cannot read: " + e.getMessage(), e);
    }
    byte[] pkcs1 = block(text, PKCS1);
    byte[] pkcs8 = pkcs1 != null ? wrapRsa(pkcs1) : block(text, PKCS8);
    if (pkcs8 == null) {
      throw new IllegalArgumentException(
          pem
              + ": expected an unencrypted PKCS#8 (BEGIN PRIVATE KEY) or PKCS#1 RSA (BEGIN RSA"
              + " PRIVATE KEY) key; convert with 'openssl pkcs8 -topk8 -nocrypt -in KEY -out"
              + " KEY.pk8'");
    }
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(pkcs8);
    for (String algorithm : pkcs1 != null ? List.of("RSA") : List.of("RSA", "EC", "Ed25519")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // try the next algorithm
      }
    }
    throw new IllegalArgumentException(pem + ": not an RSA, EC or Ed25519 private key");
  }

  /** The DER bytes of the first {@code -----BEGIN <label>-----} block, or null without one. */
  private static byte[] block(String text, String label) {
    String begin = "-----BEGIN " + label + "-----";
    int start = text.indexOf(begin);
    int end = text.indexOf("-----END " + label + "-----", Math.max(start, 0));
    if (start < 0 || end < 0) {
      return null;
    }
    return Base64.getMimeDecoder().decode(text.substring(start + begin.length(), end));
  }

  /** PrivateKeyInfo ::= SEQUENCE { version 0, rsaEncryption, OCTET STRING { RSAPrivateKey } }. */
  private static byte[] wrapRsa(byte[] pkcs1) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(new byte[] {0x02, 0x01, 0x00});
    body.writeBytes(RSA_ALGORITHM);
    body.writeBytes(der(0x04, pkcs1));
    return der(0x30, body.toByteArray());
  }

  /** One DER element: tag, definite length (short or long form), content. */
  private static byte[] der(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = content.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
        out.write(length >>> shift);
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }
}
