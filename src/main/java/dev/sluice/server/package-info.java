/**
 * The gRPC server on the service port: Envoy's RLS, {@code grpc.health.v1.Health} and server
 * reflection, on a bounded executor, with an orderly stop. Owns no business logic; the composition
 * root hands it the services.
 */
package dev.sluice.server;
