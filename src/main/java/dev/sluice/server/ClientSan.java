package dev.sluice.server;

import io.grpc.util.AdvancedTlsX509TrustManager.SslSocketAndEnginePeerVerifier;
import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLEngine;

/**
 * Accepts a client certificate (already verified against the client CA) only when it names {@code
 * san}, as the reference's GRPC_CLIENT_TLS_SAN does through Go's {@code VerifyOptions.DNSName}: an
 * IP address must be one of the certificate's IP SANs; a name must match one of its DNS SANs, case
 * aside, where a SAN {@code *.example.com} covers exactly one left-most label. The common name is
 * never used. Stateless; called on the TLS handshake's thread.
 */
final class ClientSan implements SslSocketAndEnginePeerVerifier {
  private static final int DNS = 2;
  private static final int IP = 7;

  private final String san;

  ClientSan(String san) {
    if (san.isBlank()) {
      throw new IllegalArgumentException("client SAN must not be blank");
    }
    this.san = san.trim();
  }

  @Override
  public void verifyPeerCertificate(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    verify(chain);
  }

  @Override
  public void verifyPeerCertificate(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    verify(chain);
  }

  void verify(X509Certificate[] chain) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("no client certificate");
    }
    if (!names(chain[0])) {
      throw new CertificateException("client certificate does not name " + san);
    }
  }

  /** Whether {@code cert}'s subject alternative names include {@link #san}. */
  boolean names(X509Certificate cert) throws CertificateParsingException {
    Collection<List<?>> names = cert.getSubjectAlternativeNames();
    if (names == null) {
      return false;
    }
    boolean ip = isIpLiteral(san);
    for (List<?> name : names) {
      int type = (Integer) name.get(0);
      String value = String.valueOf(name.get(1));
      if (ip && type == IP && sameAddress(value, san)) {
        return true;
      }
      if (!ip && type == DNS && dnsMatches(value, san)) {
        return true;
      }
    }
    return false;
  }

  private static boolean dnsMatches(String pattern, String host) {
    String p = pattern.toLowerCase(Locale.ROOT);
    String h = host.toLowerCase(Locale.ROOT);
    if (p.equals(h)) {
      return true;
    }
    if (!p.startsWith("*.")) {
      return false;
    }
    int dot = h.indexOf('.');
    return dot > 0 && h.substring(dot).equals(p.substring(1));
  }

  private static boolean isIpLiteral(String text) {
    return text.matches("[0-9.]+") || text.contains(":");
  }

  private static boolean sameAddress(String a, String b) {
    try {
      // Both are literals, so no name lookup happens.
      return InetAddress.getByName(a).equals(InetAddress.getByName(b));
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
