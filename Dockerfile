# Sluice's image: built from source with Maven, run on a JRE as a non-root user.
#   docker build -t sluice .        (docker-compose.yml builds it for the demo)
# src/test/java/dev/sluice/deploy/DockerfileTest.java checks this file against the code and README;
# DockerBuildReplayIT runs its build stage as Docker would.

# Build: the README's package command on a pinned Maven + JDK 17 image.
FROM maven:3.9.9-eclipse-temurin-17 AS build
WORKDIR /build
# The pom alone first: the dependency layer is rebuilt only when the pom changes.
COPY pom.xml .
RUN mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:go-offline
# Everything `mvn package` reads: the sources and our admin API's .proto files (protobuf plugin).
# DockerBuildReplayIT replays these lines in an empty directory, so a missing one fails a test.
COPY proto ./proto
COPY src ./src
RUN mvn -B -q -DskipTests package
# Netty's native libraries for the image's architecture, out of the jar now so that the JVM loads
# them from java.library.path and never extracts them to /tmp (a read-only root refuses that).
COPY deploy/image/native-libs.sh ./deploy/image/
RUN sh deploy/image/native-libs.sh target/sluice.jar target/native

# Run: the jar, its native libraries, the default rules and the two ways to start it.
FROM eclipse-temurin:17.0.17_10-jre-noble
RUN groupadd --system --gid 10001 sluice \
 && useradd --system --uid 10001 --gid sluice --no-create-home --shell /usr/sbin/nologin sluice
# `serve` and `check` read config/rules relative to the working directory by default.
WORKDIR /app
COPY --from=build /build/target/sluice.jar /app/sluice.jar
COPY --from=build /build/target/native /app/native
COPY config/rules /app/config/rules
# The JVM settings both ways in share (java's argument file; the reasons are in the file).
COPY deploy/image/jvm.options /app/jvm.options
# Envoy Gateway starts the rate-limit container with command /bin/ratelimit (the reference
# image's binary); this script runs `serve` as ENTRYPOINT + CMD below do. /bin is usr/bin here.
COPY deploy/image/ratelimit /bin/ratelimit
# Numeric, so that Kubernetes can check runAsNonRoot; Envoy Gateway runs it as 65534 instead,
# which works as well: everything above is world-readable and nothing is written at run time.
USER 10001:10001
# 8081: gRPC (Envoy's RLS v3, health, reflection). 8080: admin HTTP (/healthcheck).
EXPOSE 8081 8080
# No curl in the image is assumed: bash's /dev/tcp sends the request. The port follows
# SLUICE_HTTP_PORT (not a --http-port flag).
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${SLUICE_HTTP_PORT:-8080} && printf 'GET /healthcheck HTTP/1.0\\r\\n\\r\\n' >&3 && read -r status <&3 && [[ $status == *' 200 '* ]]"]
ENTRYPOINT ["java", "@/app/jvm.options", "-jar", "/app/sluice.jar"]
CMD ["serve"]
