/**
 * The live page ({@code GET /ui}) and its JSON ({@code GET /ui/data}): per-rule decisions and
 * refusals per second over the last 15 minutes, the keys refused most right now (a fixed-size
 * Space-Saving sketch, values hashed unless the rule is {@code detailed_metric}), the store's state
 * and the rules' version. Fed from the limiter through {@link dev.sluice.limiter.DecisionListener};
 * memory is fixed whatever the traffic.
 */
package dev.sluice.live;
