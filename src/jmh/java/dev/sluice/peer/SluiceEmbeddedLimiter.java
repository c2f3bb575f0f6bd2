package dev.sluice.peer;

import dev.sluice.embed.Descriptor;
import dev.sluice.embed.SluiceLimiter;
import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Sluice's embedded limiter ({@link SluiceLimiter}) with its default settings, on one rule file
 * holding the three limits for one algorithm.
 */
final class SluiceEmbeddedLimiter implements ComparedLimiter {
  private final String name;
  private final String prefix;
  private final SluiceLimiter limiter;

  SluiceEmbeddedLimiter(URI redis, String algorithm) {
    this.name = "sluice-embedded " + algorithm;
    this.prefix = algorithm.equals("token_bucket") ? "tb_" : "fw_";
    this.limiter = SluiceLimiter.builder().rules(rules(algorithm, prefix)).redis(redis).build();
  }

  private static String rules(String algorithm, String prefix) {
    return """
        domain: bench
        descriptors:
          - key: %1$sopen
            rate_limit: {unit: second, requests_per_unit: %2$d, algorithm: %3$s}
          - key: %1$sone_per_second
            rate_limit: {unit: second, requests_per_unit: 1, algorithm: %3$s}
          - key: %1$sclosed
            rate_limit: {unit: hour, requests_per_unit: 1, algorithm: %3$s}
        """
        .formatted(prefix, OPEN_PER_SECOND, algorithm);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean tryAcquire(Kind kind, String key) {
    String descriptorKey = prefix + kind.name().toLowerCase(Locale.ROOT);
    return limiter
        .shouldRateLimit("bench", List.of(Descriptor.of(descriptorKey, key)), 1)
        .toCompletableFuture()
        .join()
        .allowed();
  }

  @Override
  public void close() {
    limiter.close();
  }
}
