package dev.sluice.store.redis;

import dev.sluice.config.RedisTls;
import dev.sluice.tls.PemPrivateKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The JSSE side of {@link RedisTls}: a socket factory trusting the configured CA and presenting the
 * client certificate, and parameters that make the handshake check the server's host name (the
 * JDK's HTTPS rules: the name or IP address Sluice connected to must be in the certificate).
 */
final class TlsSockets {
  private static final char[] NO_PASSWORD = new char[0];

  private TlsSockets() {}

  /**
   * @throws IllegalArgumentException naming the file when a PEM file cannot be read or parsed
   */
  static SSLSocketFactory factory(RedisTls tls) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers(tls), trustManagers(tls), null);
      return context.getSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot set up TLS for redis: " + e.getMessage(), e);
    }
  }

  /** Host name verification on, unless insecure. */
  static SSLParameters parameters(RedisTls tls) {
    SSLParameters parameters = new SSLParameters();
    if (!tls.insecure()) {
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
    }
    return parameters;
  }

  private static TrustManager[] trustManagers(RedisTls tls) throws GeneralSecurityException {
    if (tls.insecure()) {
      return new TrustManager[] {new TrustEverything()};
    }
    if (tls.ca().isEmpty()) {
      return null; // the JVM's default trust store
    }
    KeyStore store = emptyStore();
    List<Certificate> cas = certificates(tls.ca().get());
    for (int i = 0; i < cas.size(); i++) {
      store.setCertificateEntry("ca-" + i, cas.get(i));
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    return factory.getTrustManagers();
  }

  private static KeyManager[] keyManagers(RedisTls tls) throws GeneralSecurityException {
    if (tls.clientCert().isEmpty()) {
      return null;
    }
    List<Certificate> chain = certificates(tls.clientCert().get());
    PrivateKey key = PemPrivateKey.read(tls.clientKey().orElseThrow());
    KeyStore store = emptyStore();
    store.setKeyEntry("client", key, NO_PASSWORD, chain.toArray(Certificate[]::new));
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(store, NO_PASSWORD);
    return factory.getKeyManagers();
  }

  private static KeyStore emptyStore() throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException(e);
    }
    return store;
  }

  private static List<Certificate> certificates(Path pem) {
    try (InputStream in = Files.newInputStream(pem)) {
      List<Certificate> certificates =
          List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException(pem + ": no PEM certificate in it");
      }
      return certificates;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(pem + ": cannot read certificates: " + e.getMessage(), e);
    }
  }

  /** {@code --redis-tls-insecure}: accepts any certificate; the store logs a warning. */
  private static final class TrustEverything implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
