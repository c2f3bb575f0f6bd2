package dev.sluice.capture;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How capture files are opened. A capture holds raw descriptor values (API keys, client addresses),
 * so it is private and written only where the operator pointed: a file Sluice creates is {@code
 * 0600} and a directory it creates {@code 0700} (a rotated file is a renamed one, so it stays
 * {@code 0600}); an existing capture file that group or others may read is narrowed to its owner's
 * bits, once, with a WARN. The path itself must be a regular file or absent: a symbolic link, a
 * device such as {@code /dev/full}, a FIFO or a directory is refused, and the file is opened with
 * {@code O_NOFOLLOW}, so a link swapped in later is refused too rather than followed into another
 * file. Directories on the way may be links ({@code /var/lib} to a data disk is common). On a file
 * system without POSIX permissions files get that system's defaults. Stateless.
 */
final class CaptureFiles {
  private static final Logger log = LoggerFactory.getLogger(CaptureFiles.class);

  private static final Set<PosixFilePermission> FILE_PERMISSIONS =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> DIRECTORY_PERMISSIONS =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_ONLY =
      EnumSet.of(
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE);
  private static final Set<OpenOption> APPEND =
      Set.of(
          StandardOpenOption.CREATE,
          StandardOpenOption.WRITE,
          StandardOpenOption.APPEND,
          LinkOption.NOFOLLOW_LINKS);

  private CaptureFiles() {}

  /**
   * Opens {@code file} for appending, creating it (and missing directories) private.
   *
   * @throws IOException with a message naming {@code file} and why it cannot be used
   */
  static FileChannel openForAppend(Path file) throws IOException {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null && !Files.isDirectory(parent)) {
        Files.createDirectories(parent, attributes(file, DIRECTORY_PERMISSIONS));
      }
      refuseUnlessRegularOrAbsent(file);
      FileChannel channel = FileChannel.open(file, APPEND, attributes(file, FILE_PERMISSIONS));
      narrowIfShared(file);
      return channel;
    } catch (FileSystemException e) {
      String reason = e.getReason() != null ? e.getReason() : e.getClass().getSimpleName();
      throw new IOException("cannot open " + file + ": " + reason, e);
    }
  }

  private static void refuseUnlessRegularOrAbsent(Path file) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return;
    }
    if (attributes.isSymbolicLink()) {
      throw new IOException(
          file
              + " is a symbolic link; a capture holds request values and is never written through"
              + " a link (name the file itself)");
    }
    if (!attributes.isRegularFile()) {
      throw new IOException(
          file
              + " is not a regular file ("
              + (attributes.isDirectory() ? "a directory" : "a device, FIFO or socket")
              + "); a capture is written to a regular file only");
    }
  }

  /** An existing file keeps only its owner's bits: it may predate captures being private. */
  private static void narrowIfShared(Path file) throws IOException {
    PosixFileAttributeView view =
        Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    if (view == null) {
      return;
    }
    Set<PosixFilePermission> permissions = view.readAttributes().permissions();
    Set<PosixFilePermission> narrowed = EnumSet.noneOf(PosixFilePermission.class);
    narrowed.addAll(permissions);
    narrowed.retainAll(OWNER_ONLY);
    if (!narrowed.equals(permissions)) {
      view.setPermissions(narrowed);
      log.warn(
          "capture file {} was {}; now {}: it holds request values",
          file,
          PosixFilePermissions.toString(permissions),
          PosixFilePermissions.toString(narrowed));
    }
  }

  private static FileAttribute<?>[] attributes(Path file, Set<PosixFilePermission> permissions) {
    return file.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
        : new FileAttribute<?>[0];
  }
}
