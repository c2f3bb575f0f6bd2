/**
 * Rules pushed by a control plane over xDS (state of the world, ADS): the stream client with its
 * ACK/NACK and reconnect backoff, and the conversion of {@code
 * ratelimit.config.ratelimit.v3.RateLimitConfig} resources into the node form that {@code
 * rules.load} validates exactly like rule files. Serving the result goes through {@code
 * RuleReloader.apply}, the same atomic swap as a file reload. No rule semantics live here.
 */
package dev.sluice.rules.xds;
