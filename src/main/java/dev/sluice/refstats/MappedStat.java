package dev.sluice.refstats;

import java.util.Optional;

/**
 * One statsd stat, resolved once through the mapper to its series: events are then a scale and an
 * add, with no name built or matched. Inert when the mapper dropped the stat. Thread-safe.
 */
final class MappedStat {
  private final StatCell cell;
  private final double scale;

  private MappedStat(StatCell cell, double scale) {
    this.cell = cell;
    this.scale = scale;
  }

  static MappedStat resolve(
      StatsdMapper mapper, StatFamilies families, String statName, StatType type) {
    Mapped mapped = mapper.map(statName, type);
    Optional<StatCell> cell = families.cell(mapped, type);
    double scale = mapped instanceof Mapped.Series series ? series.scale() : 1;
    return new MappedStat(cell.orElse(null), scale);
  }

  /** A counter event; zero is no event (the reference never sends a zero count). */
  void add(long amount) {
    if (cell != null && amount != 0) {
      cell.add(amount * scale);
    }
  }

  /** A timer event. */
  void observe(double value) {
    if (cell != null) {
      cell.observe(value * scale);
    }
  }
}
