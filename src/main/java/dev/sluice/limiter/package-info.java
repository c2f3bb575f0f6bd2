/**
 * One rate-limit decision: take the rule snapshot once, match every descriptor, drop replaced
 * rules, charge all counted hits in ONE store call, then apply shadow and quota modes. Knows
 * nothing of protobuf or Redis, so it is tested with plain values and the memory store.
 */
package dev.sluice.limiter;
