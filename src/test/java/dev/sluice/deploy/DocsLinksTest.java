package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link and anchor in README.md, BENCHMARKS.md and docs/ resolves: a moved section or
 * a renamed heading fails here instead of leaving a reader at a dead link.
 */
class DocsLinksTest {
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

  @Test
  void everyRelativeLinkAndAnchor_resolves() throws IOException {
    List<String> broken = new ArrayList<>();
    Map<Path, Set<String>> anchors = new HashMap<>();
    for (Path page : pages()) {
      for (Link link : links(page)) {
        String problem = resolve(page, link.target(), anchors);
        if (problem != null) {
          broken.add(page + ":" + link.line() + ": " + link.target() + ": " + problem);
        }
      }
    }
    assertThat(broken).as("broken links").isEmpty();
  }

  @Test
  void readme_isAFrontDoor_ofAtMost300Lines() throws IOException {
    assertThat(Files.readAllLines(Path.of("README.md"))).hasSizeLessThanOrEqualTo(300);
  }

  @Test
  void everyDocsPage_isLinkedFromTheReadme() throws IOException {
    String readme = Files.readString(Path.of("README.md"));
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      List<String> unlinked =
          docs.map(p -> "docs/" + p.getFileName())
              .filter(name -> name.endsWith(".md"))
              .filter(name -> !readme.contains("(" + name))
              .toList();
      assertThat(unlinked).as("docs pages the README's topic table does not name").isEmpty();
    }
  }

  /** The resolver must see a broken anchor, or the main test proves nothing. */
  @Test
  void resolve_missingAnchorOrFile_isReported() {
    Map<Path, Set<String>> anchors = new HashMap<>();
    Path readme = Path.of("README.md");
    assertThat(resolve(readme, "docs/rules.md#no-such-heading", anchors)).contains("no heading");
    assertThat(resolve(readme, "docs/no-such-page.md", anchors)).contains("no such file");
    assertThat(resolve(readme, "docs/rules.md#rule-format", anchors)).isNull();
  }

  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("BENCHMARKS.md")));
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  private record Link(int line, String target) {}

  private static List<Link> links(Path page) throws IOException {
    List<Link> links = new ArrayList<>();
    boolean inFence = false;
    List<String> lines = Files.readAllLines(page);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("```")) {
        inFence = !inFence;
      }
      if (inFence) {
        continue;
      }
      Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", ""));
      while (m.find()) {
        String target = m.group(1);
        if (!target.matches("^[a-z]+:.*")) {
          links.add(new Link(i + 1, target));
        }
      }
    }
    return links;
  }

  /** Null when the link resolves, else what is wrong. */
  private static String resolve(Path page, String target, Map<Path, Set<String>> anchors) {
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    Path path = file.isEmpty() ? page : page.toAbsolutePath().getParent().resolve(file).normalize();
    if (!Files.exists(path)) {
      return "no such file";
    }
    if (hash < 0 || Files.isDirectory(path)) {
      return null;
    }
    String anchor = target.substring(hash + 1);
    Set<String> known = anchors.computeIfAbsent(path, DocsLinksTest::anchorsOf);
    return known.contains(anchor) ? null : "no heading with anchor #" + anchor;
  }

  /** GitHub's anchors: lower case, punctuation but '-' and '_' dropped, spaces to '-'. */
  private static Set<String> anchorsOf(Path path) {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean inFence = false;
    try {
      for (String line : Files.readAllLines(path)) {
        if (line.startsWith("```")) {
          inFence = !inFence;
        }
        Matcher m = HEADING.matcher(line);
        if (inFence || !m.matches()) {
          continue;
        }
        String slug =
            m.group(1)
                .trim()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
        int n = seen.merge(slug, 1, Integer::sum);
        anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return anchors;
  }
}
