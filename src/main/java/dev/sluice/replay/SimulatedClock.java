package dev.sluice.replay;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The replay's time: set to each captured request's timestamp before it is decided, never moved
 * backwards (a capture's lines may be slightly out of order across writer batches). Used by one
 * replay thread.
 */
final class SimulatedClock extends Clock {
  private long millis;

  SimulatedClock(long startMillis) {
    this.millis = startMillis;
  }

  void moveTo(long epochMillis) {
    millis = Math.max(millis, epochMillis);
  }

  @Override
  public long millis() {
    return millis;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
