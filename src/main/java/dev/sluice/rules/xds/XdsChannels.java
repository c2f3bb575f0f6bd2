package dev.sluice.rules.xds;

import dev.sluice.config.Secret;
import dev.sluice.config.XdsConfig;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.Executor;

/** Builds the channel to the management server: TLS or plaintext, extra headers, size limit. */
public final class XdsChannels {
  private XdsChannels() {}

  /**
   * @param executor runs the channel's callbacks (the xDS client's scheduler)
   * @throws UncheckedIOException when a TLS file cannot be read
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
        builder.keyManager(tls.clientCert().get().toFile(), tls.clientKey().get().toFile());
      }
      return builder.build();
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
