package dev.sluice.rules.xds;

import dev.sluice.config.Secret;
import dev.sluice.config.XdsConfig;
import dev.sluice.tls.PemPrivateKey;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.CertificateUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.security.cert.CertificateException;
import java.util.Map;
import java.util.concurrent.Executor;

/** Builds the channel to the management server: TLS or plaintext, extra headers, size limit. */
public final class XdsChannels {
  private XdsChannels() {}

  /**
   * @param executor runs the channel's callbacks (the xDS client's scheduler)
   * @throws UncheckedIOException when a TLS file cannot be read
   * @throws IllegalArgumentException when the client certificate or key does not parse
   */
  public static ManagedChannel open(XdsConfig config, Executor executor) {
    ManagedChannelBuilder<?> builder =
        Grpc.newChannelBuilder(config.server(), credentials(config.tls()))
            .executor(executor)
            .maxInboundMessageSize(config.maxMessageBytes())
            .intercept(MetadataUtils.newAttachHeadersInterceptor(headers(config.headers())));
    config.tls().serverName().ifPresent(builder::overrideAuthority);
    return builder.build();
  }

  private static ChannelCredentials credentials(XdsConfig.Tls tls) {
    if (!tls.enabled()) {
      return InsecureChannelCredentials.create();
    }
    try {
      TlsChannelCredentials.Builder builder = TlsChannelCredentials.newBuilder();
      if (tls.caCert().isPresent()) {
        builder.trustManager(tls.caCert().get().toFile());
      }
      if (tls.clientCert().isPresent()) {
        // Our key reader, not grpc's: Envoy Gateway's keys are PKCS#1, grpc reads PKCS#8 only.
        AdvancedTlsX509KeyManager keys = new AdvancedTlsX509KeyManager();
        try (InputStream chain = Files.newInputStream(tls.clientCert().get())) {
          keys.updateIdentityCredentials(
              CertificateUtils.getX509Certificates(chain),
              PemPrivateKey.read(tls.clientKey().get()));
        }
        builder.keyManager(keys);
      }
      return builder.build();
    } catch (CertificateException e) {
      throw new IllegalArgumentException(
          tls.clientCert().get() + ": cannot read certificates: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the xds TLS files: " + e.getMessage(), e);
    }
  }

  private static Metadata headers(Map<String, Secret> headers) {
    Metadata metadata = new Metadata();
    headers.forEach(
        (name, value) ->
            metadata.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER), value.reveal()));
    return metadata;
  }
}
