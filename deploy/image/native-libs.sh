#!/bin/sh
# Takes Netty's native libraries for this machine (the epoll transport and OpenSSL) out of the
# built jar into a directory, at image build time. The image puts that directory on
# java.library.path (deploy/image/jvm.options): Netty tries System.loadLibrary there before it
# extracts its own copy to /tmp, which a read-only root filesystem refuses, so the container
# then writes nothing to load them.
#
#   sh deploy/image/native-libs.sh JAR DIR
#
# Run by the Dockerfile's build stage, and by EnvoyGatewayContainerIT the same way.
set -eu
jar_file=$1
out=$2

case "$(uname -m)" in
  x86_64 | amd64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch_64 ;;
  *)
    echo "native-libs.sh: Netty ships no native libraries for $(uname -m)" >&2
    exit 1
    ;;
esac

# grpc-netty-shaded renames Netty's libraries with its package prefix (io_grpc_netty_shaded_),
# and Netty asks System.loadLibrary for the renamed name, so the files keep the jar's names.
prefix=META-INF/native/libio_grpc_netty_shaded_netty
epoll=${prefix}_transport_native_epoll_${arch}.so
openssl=${prefix}_tcnative_linux_${arch}.so
entries=$(jar tf "$jar_file")
for entry in "$epoll" "$openssl"; do
  if ! printf '%s\n' "$entries" | grep -qx "$entry"; then
    echo "native-libs.sh: $jar_file has no $entry (did grpc-netty-shaded rename it?)" >&2
    exit 1
  fi
done

case "$jar_file" in
  /*) ;;
  *) jar_file=$PWD/$jar_file ;;
esac
mkdir -p "$out"
work=$(mktemp -d)
(cd "$work" && jar xf "$jar_file" "$epoll" "$openssl")
mv "$work/$epoll" "$work/$openssl" "$out/"
rm -rf "$work"
ls -l "$out"
