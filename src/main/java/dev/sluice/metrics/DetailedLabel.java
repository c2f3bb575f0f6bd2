package dev.sluice.metrics;

import java.util.Objects;
import java.util.Optional;

/**
 * What a {@code detailed_metric} series' rule label stands for.
 *
 * @param rule the configured rule whose request values the series shows
 * @param value the whole request-value path ({@code key_value} per level, joined with dots); empty
 *     when the label was cut and its value was not kept (the memory for kept values was used up)
 */
public record DetailedLabel(String rule, Optional<String> value) {
  public DetailedLabel {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(value, "value");
  }
}
