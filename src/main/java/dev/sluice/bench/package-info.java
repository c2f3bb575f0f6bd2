/**
 * Measuring tools that ship in the jar, so users can size a deployment: the {@code bench} load
 * generator (Envoy's RLS API over gRPC, closed or open loop, HdrHistogram latencies) and the
 * do-nothing RLS server that shows the gRPC ceiling. Depends on {@code server} for the same gRPC
 * settings as Sluice and on nothing of the decision path; flags are parsed by {@code cli}.
 */
package dev.sluice.bench;
