package dev.sluice.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest, or "development" when run from classes. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = Main.class.getPackage().getImplementationVersion();
    return new String[] {"sluice " + (version == null ? "development" : version)};
  }
}
