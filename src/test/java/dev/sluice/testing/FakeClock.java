package dev.sluice.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves only when told to. Thread-safe. */
public final class FakeClock extends Clock {
  private final AtomicReference<Instant> now;

  public FakeClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /** A clock at a round, epoch-aligned instant, so window arithmetic in tests is easy to read. */
  public static FakeClock atEpochSecond(long epochSecond) {
    return new FakeClock(Instant.ofEpochSecond(epochSecond));
  }

  public void advance(Duration duration) {
    now.updateAndGet(instant -> instant.plus(duration));
  }

  public void set(Instant instant) {
    now.set(instant);
  }

  @Override
  public Instant instant() {
    return now.get();
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
