package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every variable of the reference's {@code settings.go} is known: setting it changes what Sluice
 * does or says (an option's value, a warning or an error), and the migration table names it. The
 * list, with a value each and what that value needs beside it, is {@code
 * src/test/resources/reference/settings-go-variables.txt}.
 */
class ReferenceVariablesCoverageTest {
  /**
   * Honoured whatever the value, so setting it changes nothing: Sluice polls rule contents, which
   * sees the changes of both the reference's watch modes.
   */
  private static final Set<String> HONOURED_AS_THEY_ARE = Set.of("RUNTIME_WATCH_ROOT");

  private record Sample(String name, String value, Map<String, String> beside) {}

  @Test
  void settingsGo_everyVariable_isTranslatedWarnedOrAnError() throws IOException {
    List<Sample> samples = samples();
    List<String> unnoticed = new ArrayList<>();
    for (Sample sample : samples) {
      Map<String, String> with = new HashMap<>(sample.beside());
      with.put(sample.name(), sample.value());
      if (outcome(with).equals(outcome(sample.beside()))
          && !HONOURED_AS_THEY_ARE.contains(sample.name())) {
        unnoticed.add(sample.name() + "=" + sample.value());
      }
    }

    assertThat(samples).hasSize(114);
    assertThat(unnoticed).as("set, but nothing changes").isEmpty();
  }

  @Test
  void migrationTable_namesEverySettingsGoVariable() throws IOException {
    String migration = Files.readString(Path.of("docs/migration.md"));

    assertThat(samples().stream().map(Sample::name))
        .allSatisfy(name -> assertThat(migration).contains("`" + name + "`"));
  }

  /** What Sluice makes of {@code env}: the SLUICE_* values, the warnings and the errors. */
  private static List<Object> outcome(Map<String, String> env) {
    ReferenceEnvironment reference = ReferenceEnvironment.of(env);
    return List.of(
        reference.sluiceView(),
        reference.warnings(new CommandLine(new ServeCommand()).getCommandSpec()),
        reference.errors());
  }

  private static List<Sample> samples() throws IOException {
    List<Sample> samples = new ArrayList<>();
    try (InputStream in =
        ReferenceVariablesCoverageTest.class.getResourceAsStream(
            "/reference/settings-go-variables.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        List<String[]> pairs = new ArrayList<>();
        for (String word : line.strip().split("\\s+")) {
          pairs.add(word.split("=", 2));
        }
        Map<String, String> beside = new LinkedHashMap<>();
        pairs.subList(1, pairs.size()).forEach(pair -> beside.put(pair[0], pair[1]));
        samples.add(new Sample(pairs.get(0)[0], pairs.get(0)[1], Map.copyOf(beside)));
      }
    }
    return samples;
  }
}
