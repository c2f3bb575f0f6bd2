package dev.sluice.rules.load;

import dev.sluice.rules.DescriptorSpec;
import dev.sluice.rules.DomainSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference's MERGE_DOMAIN_CONFIG: several files may declare one domain, and their top-level
 * descriptors are added together. Two files declaring the same top-level descriptor (same key and
 * value) is still a conflict, reported at the later one's {@code FILE:LINE}. Pure.
 */
final class DomainMerge {
  /** The merged domains, in first-seen order. */
  record Result(List<DomainSpec> domains, List<RuleProblem> problems) {}

  private DomainMerge() {}

  static Result merge(List<ParsedFile> files) {
    Map<String, List<DescriptorSpec>> byDomain = new LinkedHashMap<>();
    Map<String, Map<String, ParsedFile>> firstFile = new LinkedHashMap<>();
    Map<String, List<String>> sources = new LinkedHashMap<>();
    List<RuleProblem> problems = new ArrayList<>();
    for (ParsedFile file : files) {
      List<DescriptorSpec> descriptors =
          byDomain.computeIfAbsent(file.domain(), d -> new ArrayList<>());
      Map<String, ParsedFile> seen =
          firstFile.computeIfAbsent(file.domain(), d -> new LinkedHashMap<>());
      sources.computeIfAbsent(file.domain(), d -> new ArrayList<>()).add(file.file().name());
      for (DescriptorSpec descriptor : file.descriptors()) {
        ParsedFile first = seen.putIfAbsent(descriptor.compositeKey(), file);
        if (first != null && first != file) {
          problems.add(
              new RuleProblem(
                  file.file().path(),
                  line(descriptor.origin()),
                  "duplicate descriptor '"
                      + file.domain()
                      + "."
                      + descriptor.compositeKey()
                      + "' (also in "
                      + first.file().path()
                      + "; merged domains may not repeat a top-level descriptor)"));
        } else {
          descriptors.add(descriptor);
        }
      }
    }
    List<DomainSpec> domains = new ArrayList<>();
    byDomain.forEach(
        (domain, descriptors) ->
            domains.add(
                new DomainSpec(domain, descriptors, String.join("+", sources.get(domain)))));
    return new Result(domains, problems);
  }

  /** {@code source:line} → line. */
  private static int line(String origin) {
    try {
      return Integer.parseInt(origin.substring(origin.lastIndexOf(':') + 1));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
