package dev.sluice.config;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/** Parses a setting's value into one of an enum's choices by the name a flag or env var uses. */
public final class ConfigNames {
  private ConfigNames() {}

  /**
   * The choice whose {@code name} equals {@code value}, ignoring case and surrounding space.
   *
   * @param what the setting, for the error: "unknown {what} 'x'; expected a, b or c"
   * @throws IllegalArgumentException naming the value and every choice
   */
  public static <E extends Enum<E>> E parse(
      E[] choices, Function<E, String> name, String value, String what) {
    for (E choice : choices) {
      if (name.apply(choice).equalsIgnoreCase(value.trim())) {
        return choice;
      }
    }
    List<String> names = Stream.of(choices).map(name).toList();
    String expected =
        names.size() == 1
            ? names.get(0)
            : String.join(", ", names.subList(0, names.size() - 1))
                + " or "
                + names.get(names.size() - 1);
    throw new IllegalArgumentException(
        "unknown " + what + " '" + value + "'; expected " + expected);
  }
}
