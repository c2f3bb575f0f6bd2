package dev.sluice.refstats;

import io.prometheus.metrics.core.metrics.Summary;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * One series of a family: the value its events added up to. Created with its family's options,
 * updated on the threads that record events, read by the scrape. Thread-safe: adders, and the
 * Prometheus client's own summary.
 */
sealed interface StatCell permits StatCell.Count, StatCell.Buckets, StatCell.Quantiles {
  /** Adds a counter event's value. */
  void add(double amount);

  /** Records a timer event's value. */
  void observe(double value);

  /**
   * Writes its sample lines, or nothing while no event touched it (a counter whose events were all
   * zero is never sent to statsd_exporter, so its series does not exist there either).
   */
  void write(StringBuilder out, String name, Map<String, String> labels);

  static StatCell of(StatFamily.Kind kind, ObserverOptions options) {
    return switch (kind) {
      case COUNTER -> new Count();
      case HISTOGRAM -> new Buckets(options.buckets());
      case SUMMARY -> new Quantiles(options.quantiles());
    };
  }

  /** A counter. */
  final class Count implements StatCell {
    private final DoubleAdder value = new DoubleAdder();
    private volatile boolean touched;

    @Override
    public void add(double amount) {
      value.add(amount);
      touched = true;
    }

    @Override
    public void observe(double value) {
      throw new UnsupportedOperationException("a counter is not observed");
    }

    @Override
    public void write(StringBuilder out, String name, Map<String, String> labels) {
      if (touched) {
        TextFormat.sample(out, name, labels, null, null, value.sum());
      }
    }
  }

  /** A histogram: per-bucket counts (not cumulative until written), and the sum. */
  final class Buckets implements StatCell {
    private final double[] bounds;
    private final LongAdder[] counts;
    private final DoubleAdder sum = new DoubleAdder();

    Buckets(List<Double> bounds) {
      this.bounds = bounds.stream().mapToDouble(Double::doubleValue).toArray();
      this.counts = new LongAdder[this.bounds.length + 1];
      for (int i = 0; i < counts.length; i++) {
        counts[i] = new LongAdder();
      }
    }

    @Override
    public void add(double amount) {
      throw new UnsupportedOperationException("a histogram is not added to");
    }

    @Override
    public void observe(double value) {
      int bucket = 0;
      while (bucket < bounds.length && value > bounds[bucket]) {
        bucket++;
      }
      counts[bucket].increment();
      sum.add(value);
    }

    @Override
    public void write(StringBuilder out, String name, Map<String, String> labels) {
      long cumulative = 0;
      long[] snapshot = new long[counts.length];
      for (int i = 0; i < counts.length; i++) {
        snapshot[i] = counts[i].sum();
      }
      long total = 0;
      for (long count : snapshot) {
        total += count;
      }
      if (total == 0) {
        return;
      }
      for (int i = 0; i < bounds.length; i++) {
        cumulative += snapshot[i];
        TextFormat.sample(
            out, name + "_bucket", labels, "le", TextFormat.number(bounds[i]), cumulative);
      }
      // _count is the +Inf bucket, read once, so the two never disagree mid-scrape.
      TextFormat.sample(out, name + "_bucket", labels, "le", "+Inf", total);
      TextFormat.sample(out, name + "_sum", labels, null, null, sum.sum());
      TextFormat.sample(out, name + "_count", labels, null, null, total);
    }
  }

  /** A summary over statsd_exporter's sliding window, computed by the Prometheus Java client. */
  final class Quantiles implements StatCell {
    private final Summary summary;

    Quantiles(List<ObserverOptions.Quantile> quantiles) {
      Summary.Builder builder =
          Summary.builder()
              .name("reference_timer")
              .maxAgeSeconds(ObserverOptions.MAX_AGE.toSeconds())
              .numberOfAgeBuckets(ObserverOptions.AGE_BUCKETS);
      for (ObserverOptions.Quantile quantile : quantiles) {
        builder.quantile(quantile.quantile(), quantile.error());
      }
      // Not registered anywhere: only its data point is read, by write().
      this.summary = (Summary) builder.withoutExemplars().build();
    }

    @Override
    public void add(double amount) {
      throw new UnsupportedOperationException("a summary is not added to");
    }

    @Override
    public void observe(double value) {
      summary.observe(value);
    }

    @Override
    public void write(StringBuilder out, String name, Map<String, String> labels) {
      SummarySnapshot.SummaryDataPointSnapshot point = summary.collect().getDataPoints().get(0);
      if (point.getCount() == 0) {
        return;
      }
      for (Quantile quantile : point.getQuantiles()) {
        TextFormat.sample(
            out,
            name,
            labels,
            "quantile",
            TextFormat.number(quantile.getQuantile()),
            quantile.getValue());
      }
      TextFormat.sample(out, name + "_sum", labels, null, null, point.getSum());
      TextFormat.sample(out, name + "_count", labels, null, null, point.getCount());
    }
  }
}
