/**
 * OpenTelemetry traces of the decisions: the trace context Envoy sends (W3C {@code traceparent} or
 * B3) is continued by a {@code ShouldRateLimit} span with a child span for the store round trip.
 * {@link dev.sluice.tracing.Tracing#off()} is a null object that adds nothing (no interceptor, no
 * store wrapper, a constant span), so the hot path has no {@code if (enabled)} checks. Spans carry
 * the domain, descriptor count, overall code and configured rule names, never request values.
 */
package dev.sluice.tracing;
