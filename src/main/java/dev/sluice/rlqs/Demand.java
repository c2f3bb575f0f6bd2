package dev.sluice.rlqs;

/**
 * One client's smoothed demand for one bucket, from its usage reports. The first report of a bucket
 * says little (Envoy sends it on the bucket's first request, after an arbitrary time), so the
 * demand is unknown until the second; from then on each report's {@code (allowed + denied) /
 * time_elapsed} is blended in with weight {@link #SMOOTHING}. Denied requests count: they are
 * demand the client could not serve. Immutable.
 *
 * @param perSecond the estimate; meaningless while {@link #known} is false
 * @param reports reports that measured a rate
 * @param lastMillis when the last report came, on the service clock
 */
record Demand(double perSecond, long reports, long lastMillis) {
  /** Weight of the newest report: 0.5 halves a step's error every report interval. */
  static final double SMOOTHING = 0.5;

  /** Envoy's shortest reporting_interval is over 100 ms; a shorter report is not a rate. */
  static final long MIN_MEASURED_MILLIS = 100;

  /** Nothing known yet: before the first report. */
  static final Demand NONE = new Demand(0, 0, 0);

  /**
   * This demand updated by one report of {@code requests} over {@code elapsedMillis} (> 0).
   *
   * @param reports counts only reports that measured a rate
   */
  Demand report(long requests, long elapsedMillis, long nowMillis) {
    if (elapsedMillis < MIN_MEASURED_MILLIS) {
      return new Demand(perSecond, reports, nowMillis);
    }
    double measured = requests * 1000.0 / elapsedMillis;
    double next = reports == 0 ? measured : SMOOTHING * measured + (1 - SMOOTHING) * perSecond;
    return new Demand(next, reports + 1, nowMillis);
  }

  boolean known() {
    return reports >= 1;
  }

  /** The demand to divide by: {@link Double#POSITIVE_INFINITY} while unknown. */
  double forDivision() {
    return known() ? perSecond : Double.POSITIVE_INFINITY;
  }
}
