package dev.sluice.rlqs;

import java.time.Duration;
import java.util.Objects;

/**
 * What one Envoy is told to enforce for one bucket: a blanket rule or a token bucket. Immutable.
 * Two equal assignments are the same strategy to Envoy, so sending one again only extends its time
 * to live and keeps the Envoy's bucket as it is.
 */
sealed interface Assignment {
  /** The metric label of this kind. */
  String kind();

  /**
   * Every request passes: no rule limits the bucket, or the rule is unlimited or in shadow mode.
   */
  record AllowAll() implements Assignment {
    @Override
    public String kind() {
      return "allow_all";
    }
  }

  /** Every request is denied: the rule allows 0 requests. */
  record DenyAll() implements Assignment {
    @Override
    public String kind() {
      return "deny_all";
    }
  }

  /**
   * A token bucket refilled {@code tokensPerFill} every {@code fillInterval} (Envoy refills it
   * continuously at that rate), holding at most {@code maxTokens}.
   *
   * @param share the rate it stands for, per second; {@code tokensPerFill / fillInterval <= share}
   */
  record Tokens(long maxTokens, long tokensPerFill, Duration fillInterval, double share)
      implements Assignment {
    public Tokens {
      if (maxTokens < 1 || tokensPerFill < 1) {
        throw new IllegalArgumentException(
            "max_tokens and tokens_per_fill must be >= 1: " + maxTokens + ", " + tokensPerFill);
      }
      Objects.requireNonNull(fillInterval, "fillInterval");
    }

    /** Tokens per fill aimed at: enough that flooring them loses at most 1 %. */
    private static final double TARGET_TOKENS_PER_FILL = 100;

    private static final long MAX_UINT32 = 0xFFFF_FFFFL;

    /**
     * What the bucket of a rule without a burst holds, in seconds of the share. Envoy starts a full
     * bucket on every new strategy, so each re-assignment can admit this much extra: a whole second
     * of share per change measured +60 % for a second when a client arrived.
     */
    static final double BURST_SECONDS = 0.2;

    /**
     * The token bucket for a share of a divided rate. The fill interval is chosen (1 s .. 1 h) so a
     * fill holds about 100 tokens, and the tokens per fill are rounded down, so the rate Envoy
     * enforces is at most {@code share} and at least 99 % of it (a share under one request per hour
     * gets one token per {@code 1 / share}). The bucket holds the client's part of the rule's
     * {@code burst} for a token-bucket rule, else one second of its share, and at least one token.
     *
     * @param share per second, > 0
     * @param limit the divided rate, per second, >= share
     * @param burst the rule's burst, when it is a token bucket
     */
    static Tokens forShare(double share, double limit, java.util.Optional<Long> burst) {
      if (!(share > 0)) {
        throw new IllegalArgumentException("share must be > 0: " + share);
      }
      long fillMillis =
          (long)
              Math.min(Math.max(1000, Math.ceil(TARGET_TOKENS_PER_FILL * 1000 / share)), 3_600_000);
      long tokens = (long) Math.floor(share * fillMillis / 1000);
      if (tokens < 1) {
        tokens = 1;
        fillMillis = (long) Math.ceil(1000 / share);
      }
      long maxTokens =
          burst
              .map(b -> (long) Math.floor(b * Math.min(1, share / limit)))
              .orElse((long) Math.ceil(share * BURST_SECONDS));
      return new Tokens(
          Math.min(MAX_UINT32, Math.max(1, maxTokens)),
          Math.min(MAX_UINT32, tokens),
          Duration.ofMillis(fillMillis),
          share);
    }

    /** The rate Envoy enforces, per second. */
    double ratePerSecond() {
      return tokensPerFill * 1000.0 / fillInterval.toMillis();
    }

    @Override
    public String kind() {
      return "token_bucket";
    }
  }

  AllowAll ALLOW_ALL = new AllowAll();
  DenyAll DENY_ALL = new DenyAll();
}
