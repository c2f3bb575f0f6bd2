package dev.sluice.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** CPU time used by this JVM process, all threads together. */
public final class ProcessCpu {
  private ProcessCpu() {}

  /** Nanoseconds of CPU since the process started, or -1 when the JVM does not say. */
  public static long nanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
      return hotspot.getProcessCpuTime();
    }
    return -1;
  }

  /** {@code to - from}, or -1 when either reading is unknown. */
  public static long between(long from, long to) {
    return from < 0 || to < 0 ? -1 : to - from;
  }
}
