package dev.sluice.limiter;

import dev.sluice.metrics.SluiceMetrics;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts descriptors of undeclared domains and logs each such domain once: the reference only logs
 * at debug level, so a typo in Envoy's filter silently allows everything (its issue #94).
 */
final class UnknownDomains {
  private static final Logger log = LoggerFactory.getLogger(UnknownDomains.class);
  private static final int MAX_LOGGED = 1_000;

  private final SluiceMetrics metrics;
  private final Set<String> logged = ConcurrentHashMap.newKeySet();

  UnknownDomains(SluiceMetrics metrics) {
    this.metrics = metrics;
  }

  void seen(String domain, int descriptors) {
    for (int i = 0; i < descriptors; i++) {
      metrics.domainNotFound(domain);
    }
    if (logged.size() < MAX_LOGGED && logged.add(domain)) {
      log.warn(
          "domain '{}' is not declared by any rule file: its requests are not limited", domain);
    }
  }
}
