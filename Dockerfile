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

# Run: the jar and the default rules, nothing else.
FROM eclipse-temurin:17.0.17_10-jre-noble
RUN groupadd --system --gid 10001 sluice \
 && useradd --system --uid 10001 --gid sluice --no-create-home --shell /usr/sbin/nologin sluice
# `serve` and `check` read config/rules relative to the working directory by default.
WORKDIR /app
COPY --from=build /build/target/sluice.jar /app/sluice.jar
COPY config/rules /app/config/rules
USER 10001:10001
# 8081: gRPC (Envoy's RLS v3, health, reflection). 8080: admin HTTP (/healthcheck).
EXPOSE 8081 8080
# No curl in the image is assumed: bash's /dev/tcp sends the request. The port follows
# SLUICE_HTTP_PORT (not a --http-port flag).
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${SLUICE_HTTP_PORT:-8080} && printf 'GET /healthcheck HTTP/1.0\\r\\n\\r\\n' >&3 && read -r status <&3 && [[ $status == *' 200 '* ]]"]
# Heap sized from the container's memory limit; on OutOfMemoryError exit and let the runtime
# restart the container rather than limp on. The collector is named because the JVM's own choice
# depends on the container: with one CPU (or under 1792 MB) it silently takes Serial, whose
# pauses stop every request. G1 from bench/compare.sh's collector rows (BENCHMARKS.md
# "Collectors"): the most throughput on one CPU; ZGC paused under 0.1 ms but its concurrent
# cycles could not keep up there (memory store, random keys: 22k against 82k requests/s).
# For shorter pauses at some throughput, add -XX:MaxGCPauseMillis=5 (memory token bucket: 43 -> 16 ms).
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-XX:+UseG1GC", "-jar", "/app/sluice.jar"]
CMD ["serve"]
