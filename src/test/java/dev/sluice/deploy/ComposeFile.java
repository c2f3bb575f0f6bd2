package dev.sluice.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code docker-compose.yml} as plain YAML maps with the lookups the tests need. Only the forms our
 * file uses are read: list-form {@code command}, short-syntax {@code "HOST:CONTAINER"} ports and
 * {@code "SOURCE:TARGET[:ro]"} volumes; anything else fails the lookup.
 */
record ComposeFile(Map<String, Object> root) {
  static final Path FILE = Path.of("docker-compose.yml");

  record Volume(String source, String target, boolean readOnly) {}

  record Port(int host, int container) {}

  static ComposeFile load() {
    try {
      Map<String, Object> root =
          new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(FILE));
      return new ComposeFile(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Set<String> serviceNames() {
    return services().keySet();
  }

  Map<String, Object> service(String name) {
    Object service = services().get(name);
    if (!(service instanceof Map<?, ?>)) {
      throw new AssertionError("no service " + name + " in " + FILE);
    }
    return cast(service);
  }

  Optional<String> image(String service) {
    return Optional.ofNullable((String) service(service).get("image"));
  }

  List<String> command(String service) {
    return strings(service(service).get("command"), service + ".command");
  }

  List<Volume> volumes(String service) {
    List<Volume> volumes = new ArrayList<>();
    for (String volume : strings(service(service).getOrDefault("volumes", List.of()), "volumes")) {
      String[] parts = volume.split(":");
      if (parts.length < 2 || parts.length > 3) {
        throw new AssertionError("not SOURCE:TARGET[:MODE]: " + volume);
      }
      volumes.add(new Volume(parts[0], parts[1], parts.length == 3 && parts[2].equals("ro")));
    }
    return volumes;
  }

  List<Port> ports(String service) {
    List<Port> ports = new ArrayList<>();
    for (String port : strings(service(service).getOrDefault("ports", List.of()), "ports")) {
      String[] parts = port.split(":");
      if (parts.length != 2) {
        throw new AssertionError("not HOST:CONTAINER: " + port);
      }
      ports.add(new Port(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
    }
    return ports;
  }

  /** The {@code condition} under {@code depends_on.<dependency>}, long form only. */
  Optional<String> dependencyCondition(String service, String dependency) {
    Object dependsOn = service(service).get("depends_on");
    if (!(dependsOn instanceof Map<?, ?> map) || !(map.get(dependency) instanceof Map<?, ?> dep)) {
      return Optional.empty();
    }
    return Optional.ofNullable((String) dep.get("condition"));
  }

  private Map<String, Object> services() {
    return cast(root.get("services"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Object map) {
    return (Map<String, Object>) map;
  }

  private static List<String> strings(Object value, String what) {
    if (!(value instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
      throw new AssertionError(what + " should be a list of strings: " + value);
    }
    return list.stream().map(String.class::cast).toList();
  }
}
