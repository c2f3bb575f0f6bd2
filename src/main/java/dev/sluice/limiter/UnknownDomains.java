package dev.sluice.limiter;

import dev.sluice.logging.LogText;
import dev.sluice.metrics.SluiceMetrics;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts descriptors of undeclared domains and logs each such domain once: the reference only logs
 * at debug level, so a typo in Envoy's filter silently allows everything (its issue #94).
 *
 * <p>The domain is chosen by the caller, so what is kept is bounded: at most {@link
 * #MAX_REMEMBERED} domains, each cut to {@link #MAX_CHARS} characters (120 domains of 4 MB each
 * used to stay on the heap), and the log line escapes control characters so a newline cannot forge
 * a log line.
 */
final class UnknownDomains {
  private static final Logger log = LoggerFactory.getLogger(UnknownDomains.class);
  static final int MAX_REMEMBERED = 1_000;
  static final int MAX_CHARS = 128;

  private final SluiceMetrics metrics;
  private final Set<String> logged = ConcurrentHashMap.newKeySet();

  UnknownDomains(SluiceMetrics metrics) {
    this.metrics = metrics;
  }

  void seen(String domain, int descriptors) {
    String kept = domain.length() > MAX_CHARS ? domain.substring(0, MAX_CHARS) : domain;
    for (int i = 0; i < descriptors; i++) {
      metrics.domainNotFound(kept);
    }
    // Racing threads may remember a few more than the bound; it only needs to be rough.
    if (logged.size() < MAX_REMEMBERED && logged.add(kept)) {
      log.warn(
          "domain '{}' is not declared by any rule file: its requests are not limited",
          LogText.safe(domain));
    }
  }
}
