package dev.sluice.rules.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sluice.rules.Algorithm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which files a load reads, how a directory fails as a whole, and the content version. */
class RuleFilesTest {
  @TempDir Path dir;

  private final RuleLoader loader = new RuleLoader(Algorithm.FIXED_WINDOW);

  @Test
  void load_missingPath_failsWithOneProblem() {
    Path missing = dir.resolve("nope");

    assertThat(problems(loader.load(missing)))
        .containsExactly(new RuleProblem(missing, 0, "config path does not exist"));
  }

  @Test
  void load_emptyDirectory_loadsZeroDomains() {
    LoadResult.Loaded loaded = loaded(loader.load(dir));

    assertThat(loaded.rules().domains()).isEmpty();
    assertThat(loaded.files()).isEmpty();
  }

  @Test
  void load_directory_readsYamlAndYmlRecursivelyInSortedOrder() throws IOException {
    write("b.yaml", domain("b"));
    write("a/z.yml", domain("z"));
    write("a/c.yaml", domain("c"));
    write("notes.txt", "not: [rules");
    write("a/rules.json", "{}");

    LoadResult.Loaded loaded = loaded(loader.load(dir));

    assertThat(loaded.files())
        .containsExactly(dir.resolve("a/c.yaml"), dir.resolve("a/z.yml"), dir.resolve("b.yaml"));
    assertThat(loaded.rules().domains()).containsExactly("b", "c", "z");
  }

  @Test
  void load_dotFilesAndDotDirectories_areSkipped() throws IOException {
    write("edge.yaml", domain("edge"));
    write(".edge.yaml.swp.yaml", "not: [valid");
    write(".git/config.yaml", domain("edge"));
    write("team/.old/edge.yaml", domain("edge"));

    assertThat(loaded(loader.load(dir)).files()).containsExactly(dir.resolve("edge.yaml"));
  }

  @Test
  void load_kubernetesConfigMapVolume_readsEachFileOnceThroughItsSymlink() throws IOException {
    Path data = write("..2026_01_01_00_00_00.123456789/edge.yaml", domain("edge"));
    Files.createSymbolicLink(dir.resolve("..data"), data.getParent().getFileName());
    Files.createSymbolicLink(dir.resolve("edge.yaml"), Path.of("..data/edge.yaml"));

    LoadResult.Loaded loaded = loaded(loader.load(dir));

    assertThat(loaded.files()).containsExactly(dir.resolve("edge.yaml"));
    assertThat(loaded.rules().domains()).containsExactly("edge");
  }

  @Test
  void load_symlinkedFileAndDirectory_areFollowed(@TempDir Path elsewhere) throws IOException {
    Path file = Files.writeString(elsewhere.resolve("shared.yaml"), domain("shared"));
    Path team = Files.createDirectory(elsewhere.resolve("team"));
    Files.writeString(team.resolve("team.yaml"), domain("team"));
    Files.createSymbolicLink(dir.resolve("shared.yaml"), file);
    Files.createSymbolicLink(dir.resolve("team"), team);

    LoadResult.Loaded loaded = loaded(loader.load(dir));

    assertThat(loaded.rules().domains()).containsExactly("shared", "team");
    assertThat(loaded.files())
        .containsExactly(dir.resolve("shared.yaml"), dir.resolve("team/team.yaml"));
  }

  @Test
  void load_brokenSymlink_failsNamingIt() throws IOException {
    write("edge.yaml", domain("edge"));
    Path link = Files.createSymbolicLink(dir.resolve("gone.yaml"), dir.resolve("missing.yaml"));

    assertThat(problems(loader.load(dir)))
        .containsExactly(new RuleProblem(link, 0, "broken symbolic link"));
  }

  @Test
  void load_oneBadFileInDirectory_failsTheWholeLoad() throws IOException {
    write("a.yaml", domain("a"));
    Path bad =
        write("b.yaml", "domain: b\ndescriptors:\n  - key: x\n    rate_limit: {unit: ever}\n");
    write("c.yaml", domain("c"));

    List<RuleProblem> problems = problems(loader.load(dir));

    assertThat(problems).extracting(RuleProblem::file).containsOnly(bad);
    assertThat(problems).extracting(RuleProblem::line).containsExactly(4);
  }

  @Test
  void load_badFilesInDirectory_reportsAllSortedByFileThenLine() throws IOException {
    Path first = write("a.yaml", "domain: a\ndescriptors:\n  - key: ''\n  - {}\n");
    Path second = write("b/c.yaml", "domain: c\nkey: x\n");

    assertThat(problems(loader.load(dir)))
        .extracting(RuleProblem::file, RuleProblem::line)
        .containsExactly(tuple(first, 3), tuple(first, 4), tuple(second, 2));
  }

  @Test
  void load_singleFile_readsItWhateverItsName() throws IOException {
    Path file = write("rules.conf", domain("edge"));

    LoadResult.Loaded loaded = loaded(loader.load(file));

    assertThat(loaded.files()).containsExactly(file);
    assertThat(loaded.rules().domains()).containsExactly("edge");
  }

  @Test
  void load_directory_originIsRelativePathAndKeyLine() throws IOException {
    write("team/edge.yaml", domain("edge"));

    assertThat(loaded(loader.load(dir)).rules().rules().get(0).origin())
        .isEqualTo("team/edge.yaml:3");
  }

  @Test
  void version_sameContent_isUnchangedWhateverTheTimestamps() throws IOException {
    Path file = write("edge.yaml", domain("edge"));
    String before = loaded(loader.load(dir)).version();

    Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2030-01-01T00:00:00Z")));
    Files.writeString(file, domain("edge"));

    assertThat(loaded(loader.load(dir)).version()).isEqualTo(before).matches("[0-9a-f]{12}");
  }

  @Test
  void version_changedContent_changes() throws IOException {
    Path file = write("edge.yaml", domain("edge"));
    String before = loaded(loader.load(dir)).version();

    Files.writeString(file, domain("edge").replace("10", "11"));

    assertThat(loaded(loader.load(dir)).version()).isNotEqualTo(before);
  }

  @Test
  void version_renamedOrAddedFile_changes() throws IOException {
    Path file = write("edge.yaml", domain("edge"));
    String before = loaded(loader.load(dir)).version();

    Files.move(file, dir.resolve("proxy.yaml"));
    String renamed = loaded(loader.load(dir)).version();
    write("empty.yaml", "domain: other\n");

    assertThat(renamed).isNotEqualTo(before);
    assertThat(loaded(loader.load(dir)).version()).isNotIn(before, renamed);
  }

  @Test
  void version_fileBoundaries_areFramed() {
    byte[] ab = "ab".getBytes();
    List<RuleFile> one = List.of(new RuleFile(dir, "x", ab), new RuleFile(dir, "y", new byte[0]));
    List<RuleFile> other =
        List.of(new RuleFile(dir, "x", "a".getBytes()), new RuleFile(dir, "y", "b".getBytes()));

    assertThat(RuleFiles.version(one)).isNotEqualTo(RuleFiles.version(other));
  }

  private static String domain(String name) {
    return """
        domain: %s
        descriptors:
          - key: remote_address
            rate_limit: { unit: second, requests_per_unit: 10 }
        """
        .formatted(name);
  }

  private Path write(String relative, String text) throws IOException {
    Path path = dir.resolve(relative);
    Files.createDirectories(path.getParent());
    return Files.writeString(path, text);
  }

  private static LoadResult.Loaded loaded(LoadResult result) {
    assertThat(result).isInstanceOf(LoadResult.Loaded.class);
    return (LoadResult.Loaded) result;
  }

  private static List<RuleProblem> problems(LoadResult result) {
    assertThat(result).isInstanceOf(LoadResult.Failed.class);
    return ((LoadResult.Failed) result).problems();
  }
}
