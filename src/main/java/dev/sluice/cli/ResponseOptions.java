package dev.sluice.cli;

import dev.sluice.config.HeaderConfig;
import picocli.CommandLine.Option;

/** What the answer carries besides the code: RateLimit-* headers and dynamic metadata. */
final class ResponseOptions {
  @Option(
      names = "--response-headers",
      arity = "0..1",
      defaultValue = "${env:SLUICE_RESPONSE_HEADERS:-false}",
      description =
          "Ask Envoy to add RateLimit-Limit/Remaining/Reset headers (env SLUICE_RESPONSE_HEADERS, default ${DEFAULT-VALUE}).")
  boolean responseHeaders;

  @Option(
      names = "--response-dynamic-metadata",
      arity = "0..1",
      defaultValue = "${env:SLUICE_RESPONSE_DYNAMIC_METADATA:-false}",
      description =
          "Set the response's dynamic_metadata as the reference does: domain, descriptors, hits"
              + " addend and the metadata of the rules not over their limit (env"
              + " SLUICE_RESPONSE_DYNAMIC_METADATA, default ${DEFAULT-VALUE}).")
  boolean responseDynamicMetadata;

  @Option(
      names = "--limit-header",
      defaultValue = "${env:SLUICE_LIMIT_HEADER:-RateLimit-Limit}",
      description = "Name of the limit header (env SLUICE_LIMIT_HEADER, default ${DEFAULT-VALUE}).")
  String limitHeader;

  @Option(
      names = "--remaining-header",
      defaultValue = "${env:SLUICE_REMAINING_HEADER:-RateLimit-Remaining}",
      description =
          "Name of the remaining header (env SLUICE_REMAINING_HEADER, default ${DEFAULT-VALUE}).")
  String remainingHeader;

  @Option(
      names = "--reset-header",
      defaultValue = "${env:SLUICE_RESET_HEADER:-RateLimit-Reset}",
      description = "Name of the reset header (env SLUICE_RESET_HEADER, default ${DEFAULT-VALUE}).")
  String resetHeader;

  HeaderConfig toConfig() {
    return new HeaderConfig(
        responseHeaders, limitHeader, remainingHeader, resetHeader, responseDynamicMetadata);
  }
}
