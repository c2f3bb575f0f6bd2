package dev.sluice.store.redis;

import java.util.Map;
import redis.clients.jedis.Pipeline;

/**
 * Where a request queues its commands in a lane batch: the lane's pipeline and the scripts whose
 * calls the lane combines into one per batch ({@link CoalescedScript}), by resource; none on a
 * cluster lane. Confined to the lane's writer thread.
 */
record LanePipeline(Pipeline pipeline, Map<String, CoalescedScript> coalesced) {}
