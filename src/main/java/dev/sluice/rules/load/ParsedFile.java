package dev.sluice.rules.load;

import dev.sluice.rules.DescriptorSpec;
import dev.sluice.rules.DomainSpec;
import java.util.List;

/**
 * What one rule file declared, and what is wrong with it. The domain is kept even when the file has
 * problems, so a duplicate domain is reported alongside them.
 *
 * @param domain {@code ""} when missing or unreadable
 * @param domainLine line of the {@code domain} field, for the duplicate-domain message
 * @param descriptors only meaningful when {@code problems} is empty
 */
record ParsedFile(
    RuleFile file,
    String domain,
    int domainLine,
    List<DescriptorSpec> descriptors,
    List<RuleProblem> problems) {

  static ParsedFile failed(RuleFile file, List<RuleProblem> problems) {
    return new ParsedFile(file, "", 0, List.of(), problems);
  }

  /** The file as a domain; only for a file without problems. */
  DomainSpec spec() {
    if (!problems.isEmpty()) {
      throw new IllegalStateException("file has problems: " + file.path());
    }
    return new DomainSpec(domain, descriptors, file.name());
  }
}
