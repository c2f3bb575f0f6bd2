/**
 * The operator surface: the admin HTTP port ({@code /healthcheck}, {@code /metrics}, {@code
 * /rules}, {@code /rules/reload}, {@code /json}, {@code /counters}) and the {@code
 * sluice.admin.v1.SluiceAdmin} gRPC service from {@code proto/}. Reads state through objects the
 * composition root hands in; never decides a rate limit itself.
 */
package dev.sluice.admin;
