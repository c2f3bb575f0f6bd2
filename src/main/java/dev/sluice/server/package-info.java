/**
 * The gRPC servers: the RLS port (Envoy's RLS, {@code grpc.health.v1.Health}, reflection; plaintext
 * or TLS/mTLS with certificate files re-read on change, {@link dev.sluice.server.GrpcTls}) and the
 * optional admin gRPC port, each on a bounded executor with an orderly stop, with limits on what
 * one client may hold (calls, connections, unread bytes, resets, header bytes) reported by {@link
 * dev.sluice.server.TransportReport}. Owns no business logic; the composition root hands it the
 * services.
 */
package dev.sluice.server;
