package dev.sluice.cli;

import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * Waits for SIGTERM or SIGINT. Handling the signals ourselves (instead of a shutdown hook) lets the
 * main thread drain the server and then exit 0, which is what orchestrators expect from a clean
 * stop; a JVM killed through its hooks exits 143.
 */
final class StopSignal {
  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile String reason = "";

  private StopSignal() {}

  static StopSignal install() {
    StopSignal signal = new StopSignal();
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        Signal.handle(
            new Signal(name),
            received -> {
              signal.reason = "SIG" + received.getName();
              signal.stop.countDown();
            });
      } catch (IllegalArgumentException reservedByTheJvm) {
        // e.g. under -Xrs: the JVM's own handling and the shutdown hook remain.
      }
    }
    return signal;
  }

  void await() throws InterruptedException {
    stop.await();
  }

  String reason() {
    return reason;
  }
}
