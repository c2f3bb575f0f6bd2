/**
 * One rate-limit decision: take the rule snapshot once, match every descriptor, drop replaced
 * rules, answer known over-limit counters from the local cache, charge the other hits in ONE store
 * call, then apply shadow and quota modes, or the failure mode when the store fails. Also the
 * operator's counter inspection. Knows nothing of protobuf or Redis, so it is tested with plain
 * values and the memory store.
 */
package dev.sluice.limiter;
