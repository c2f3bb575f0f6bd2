package dev.sluice.rules.load;

import dev.sluice.rules.Algorithm;
import dev.sluice.rules.Consistency;
import dev.sluice.rules.DescriptorSpec;
import dev.sluice.rules.load.NodeReader.Fields;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.Constructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Parses one rule file: YAML syntax, exactly one document, the top-level {@code domain} and {@code
 * descriptors}. Uses SnakeYAML's node tree (never object construction), so every problem carries
 * the line of its node and no YAML tag can instantiate a class. Stateless and thread-safe.
 */
final class RuleFileParser {
  /**
   * Aliases let a small file describe a huge tree (each alias can double it). Rule files rarely
   * need more than a few, and this bounds what one file can expand to.
   */
  private static final int MAX_COLLECTION_ALIASES = 20;

  private final Algorithm defaultAlgorithm;
  private final Consistency defaultConsistency;

  RuleFileParser(Algorithm defaultAlgorithm, Consistency defaultConsistency) {
    this.defaultAlgorithm = Objects.requireNonNull(defaultAlgorithm, "defaultAlgorithm");
    this.defaultConsistency = Objects.requireNonNull(defaultConsistency, "defaultConsistency");
  }

  RuleFileParser withDefaultConsistency(Consistency consistency) {
    return new RuleFileParser(defaultAlgorithm, consistency);
  }

  ParsedFile parse(RuleFile file) {
    NodeReader reader = new NodeReader(file.path());
    Optional<Node> root = document(file, reader);
    if (root.isEmpty()) {
      return ParsedFile.failed(file, reader.problems());
    }
    return parseRoot(file, root, reader);
  }

  /**
   * A document built in memory rather than read from YAML text (rules pushed over xDS): the same
   * checks from the root node on, so both sources report the same problems.
   */
  ParsedFile parse(RuleDocument document) {
    RuleFile file = new RuleFile(document.path(), document.name(), new byte[0]);
    return parseRoot(file, Optional.of(document.root()), new NodeReader(file.path()));
  }

  private ParsedFile parseRoot(RuleFile file, Optional<Node> root, NodeReader reader) {
    Optional<Node> cycle = findCycle(root.get(), identitySet(), identitySet());
    if (cycle.isPresent()) {
      reader.report(cycle.get(), "recursive alias: a node may not contain itself");
      return ParsedFile.failed(file, reader.problems());
    }
    Optional<Fields> fields = reader.fields(root.get(), Place.TOP_LEVEL);
    if (fields.isEmpty()) {
      return ParsedFile.failed(file, reader.problems());
    }
    int before = reader.problemCount();
    String domain = reader.text(fields.get(), "domain").orElse("");
    int domainLine = fields.get().line("domain");
    if (domain.isEmpty() && reader.problemCount() == before) {
      reader.report(domainLine, "config file cannot have empty domain");
    }
    RateLimitReader rateLimits = new RateLimitReader(reader, defaultAlgorithm, defaultConsistency);
    List<DescriptorSpec> descriptors =
        new DescriptorReader(reader, rateLimits, file.name(), domain)
            .readLevel(reader.list(fields.get(), "descriptors"), "");
    return new ParsedFile(file, domain, domainLine, descriptors, reader.problems());
  }

  /**
   * The file's one non-empty YAML document; empty (after reporting) when there is not exactly one.
   */
  private static Optional<Node> document(RuleFile file, NodeReader reader) {
    List<Node> documents = new ArrayList<>();
    try {
      String text = decode(file.content());
      LoaderOptions options = new LoaderOptions();
      options.setMaxAliasesForCollections(MAX_COLLECTION_ALIASES);
      Yaml yaml =
          new Yaml(
              new Constructor(options),
              new Representer(new DumperOptions()),
              new DumperOptions(),
              options,
              new QuickResolver());
      for (Node document : yaml.composeAll(new StringReader(text))) {
        // Empty documents (a stray "---", as templating tools emit) hold nothing to load.
        if (document != null && !NodeReader.isNull(document)) {
          documents.add(document);
        }
      }
    } catch (CharacterCodingException e) {
      reader.report(0, "file is not valid UTF-8 text");
      return Optional.empty();
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark();
      reader.report(mark == null ? 0 : mark.getLine() + 1, syntaxMessage(e));
      return Optional.empty();
    } catch (YAMLException e) {
      reader.report(0, "invalid YAML: " + e.getMessage());
      return Optional.empty();
    }
    if (documents.isEmpty()) {
      reader.report(0, "config file is empty; it must set a domain");
      return Optional.empty();
    }
    if (documents.size() > 1) {
      reader.report(
          documents.get(1), "a second YAML document; a rule file holds one (one domain per file)");
    }
    return Optional.of(documents.get(0));
  }

  private static String decode(byte[] content) throws CharacterCodingException {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(content))
        .toString();
  }

  private static String syntaxMessage(MarkedYAMLException e) {
    StringBuilder message = new StringBuilder("invalid YAML");
    if (e.getProblemMark() != null) {
      message.append(" at column ").append(e.getProblemMark().getColumn() + 1);
    }
    message.append(": ").append(Objects.requireNonNullElse(e.getProblem(), "syntax error"));
    if (e.getContext() != null) {
      message.append(" (").append(e.getContext());
      if (e.getContextMark() != null) {
        message.append(" started at line ").append(e.getContextMark().getLine() + 1);
      }
      message.append(')');
    }
    return message.toString();
  }

  /**
   * A node reachable from itself through aliases. SnakeYAML composes such a node without complaint,
   * and reading it would never end. Linear: each node is searched once. Scalars have no children,
   * so they never close a cycle and are not recorded (most nodes of a big file are scalars).
   */
  private static Optional<Node> findCycle(Node node, Set<Node> onPath, Set<Node> done) {
    if (node instanceof ScalarNode || done.contains(node)) {
      return Optional.empty();
    }
    if (!onPath.add(node)) {
      return Optional.of(node);
    }
    for (Node child : children(node)) {
      Optional<Node> cycle = findCycle(child, onPath, done);
      if (cycle.isPresent()) {
        return cycle;
      }
    }
    onPath.remove(node);
    done.add(node);
    return Optional.empty();
  }

  private static List<Node> children(Node node) {
    if (node instanceof SequenceNode sequence) {
      return sequence.getValue();
    }
    if (node instanceof MappingNode map) {
      List<Node> children = new ArrayList<>();
      for (NodeTuple tuple : map.getValue()) {
        children.add(tuple.getKeyNode());
        children.add(tuple.getValueNode());
      }
      return children;
    }
    return List.of();
  }

  private static Set<Node> identitySet() {
    return Collections.newSetFromMap(new IdentityHashMap<>());
  }
}
