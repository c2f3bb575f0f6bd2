/**
 * The Envoy RLS v3 adapter: protobuf requests become {@code limiter} calls and decisions become
 * protobuf responses (with the optional RateLimit-* headers), and this is the one place where
 * exceptions become gRPC statuses (bad input INVALID_ARGUMENT, store failure under failure mode
 * {@code error} UNAVAILABLE, so Envoy's own failure mode decides).
 */
package dev.sluice.service;
