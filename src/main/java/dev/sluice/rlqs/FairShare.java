package dev.sluice.rlqs;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Max-min fair division of one rate among clients by their demand. A client asking less than an
 * equal share of what is left gets what it asks; the rest is split among the others. When every
 * demand is met, the unused rate (the slack) is split equally among all clients, so a client whose
 * demand grows between two reports finds some room. The sum of the shares never exceeds the limit.
 * Pure; thread-safe.
 */
final class FairShare {
  private FairShare() {}

  /**
   * @param limit the rate to divide, per second, >= 0
   * @param demands each client's demand per second, >= 0; {@link Double#POSITIVE_INFINITY} for a
   *     client whose demand is not known yet (it gets the water level)
   * @return each client's share per second, in the order of {@code demands}
   */
  static double[] divide(double limit, double[] demands) {
    if (!(limit >= 0)) {
      throw new IllegalArgumentException("limit must be >= 0: " + limit);
    }
    int n = demands.length;
    double[] shares = new double[n];
    if (n == 0) {
      return shares;
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      if (!(demands[i] >= 0)) {
        throw new IllegalArgumentException("demand must be >= 0: " + demands[i]);
      }
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble(i -> demands[i]));
    double left = limit;
    for (int k = 0; k < n; k++) {
      int client = order[k];
      double level = left / (n - k);
      if (demands[client] > level) {
        for (int rest = k; rest < n; rest++) {
          shares[order[rest]] = level;
        }
        return shares;
      }
      shares[client] = demands[client];
      left -= demands[client];
    }
    double slack = Math.max(0, left) / n;
    for (int i = 0; i < n; i++) {
      shares[i] += slack;
    }
    return shares;
  }
}
