package dev.sluice.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys written by {@code openssl} in the forms deployments hand Sluice, read back. */
class PemPrivateKeyIT {
  @TempDir static Path dir;
  private static TestCertificates certs;
  private static Path cert;

  @BeforeAll
  static void certificates() {
    certs = new TestCertificates(dir);
    cert = certs.issue("server", "DNS:server.test");
  }

  @Test
  void read_pkcs1RsaKey_isTheSameKeyAsItsPkcs8Form() throws Exception {
    Path pkcs1 = certs.pkcs1KeyOf(cert);
    assertThat(Files.readString(pkcs1)).startsWith("-----BEGIN RSA PRIVATE KEY-----");

    PrivateKey fromPkcs1 = PemPrivateKey.read(pkcs1);
    PrivateKey fromPkcs8 = PemPrivateKey.read(TestCertificates.keyOf(cert));

    assertThat(fromPkcs1.getAlgorithm()).isEqualTo("RSA");
    assertThat(fromPkcs1.getEncoded()).isEqualTo(fromPkcs8.getEncoded());
  }

  @Test
  void read_pkcs8EcKey_readsIt() {
    assertThat(PemPrivateKey.read(certs.pkcs8Of(certs.ecKey("ec"))).getAlgorithm()).isEqualTo("EC");
  }

  @Test
  void read_traditionalEcKey_failsSayingHowToConvertIt() {
    Path ec = certs.ecKey("traditional");

    assertThatThrownBy(() -> PemPrivateKey.read(ec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ec.toString())
        .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
  }

  @Test
  void read_certificateInsteadOfKey_failsNamingTheFile() {
    assertThatThrownBy(() -> PemPrivateKey.read(cert))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(cert.toString());
  }
}
