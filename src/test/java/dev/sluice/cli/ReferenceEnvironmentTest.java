package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.RedisEndpoint;
import dev.sluice.config.ReferenceMetricsConfig;
import dev.sluice.config.ServeConfig;
import dev.sluice.config.ServerSettings;
import dev.sluice.config.StoreKind;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The reference's variables seen through {@code serve}'s options, without starting anything. */
class ReferenceEnvironmentTest {
  private static ServeConfig serve(Map<String, String> env, String... args) {
    ReferenceEnvironment reference = ReferenceEnvironment.of(env);
    CommandLine commandLine = new CommandLine(new ServeCommand(reference));
    commandLine.setDefaultValueProvider(reference);
    commandLine.parseArgs(args);
    return commandLine.<ServeCommand>getCommand().toConfig();
  }

  private static String warnings(Map<String, String> env) {
    return ReferenceEnvironment.of(env)
        .warningLine(new CommandLine(new ServeCommand()).getCommandSpec())
        .orElse("");
  }

  @Test
  void portsAndRuntimeDirectories_mapOntoServe() {
    ServeConfig config =
        serve(
            Map.of(
                "PORT", "18080",
                "GRPC_PORT", "18081",
                "RUNTIME_ROOT", "config",
                "RUNTIME_SUBDIRECTORY", "",
                "RUNTIME_APPDIRECTORY", "rules"));

    assertThat(config.server().httpPort()).isEqualTo(18080);
    assertThat(config.server().grpcPort()).isEqualTo(18081);
    assertThat(config.rules().path()).isEqualTo(Path.of("config/rules"));
  }

  @Test
  void precedence_flagThenSluiceThenReferenceThenDefault() {
    Map<String, String> env =
        Map.of("PORT", "1001", "SLUICE_GRPC_PORT", "2002", "GRPC_PORT", "3003");

    assertThat(serve(env).server().httpPort()).as("reference").isEqualTo(1001);
    assertThat(serve(env).server().grpcPort()).as("SLUICE_* beats reference").isEqualTo(2002);
    assertThat(serve(env, "--http-port=4004").server().httpPort()).as("flag").isEqualTo(4004);
    assertThat(serve(Map.of()).server().httpPort()).as("default").isEqualTo(8080);
    assertThat(ReferenceEnvironment.of(env).sluiceView()).doesNotContainKey("SLUICE_GRPC_PORT");
  }

  @Test
  void redisUrl_alone_selectsRedis_withAuthTlsPoolTimeoutAndPrefix() {
    ServeConfig config =
        serve(
            Map.of(
                "REDIS_SOCKET_TYPE", "tcp",
                "REDIS_URL", "cache:6380",
                "REDIS_AUTH", "app:s3cret",
                "REDIS_TLS", "true",
                "REDIS_POOL_SIZE", "5",
                "REDIS_TIMEOUT", "1m30s",
                "CACHE_KEY_PREFIX", "rl_"));

    assertThat(config.store().kind()).isEqualTo(StoreKind.REDIS);
    RedisEndpoint.Standalone endpoint =
        (RedisEndpoint.Standalone) config.store().redis().endpoint();
    assertThat(endpoint.host()).isEqualTo("cache");
    assertThat(endpoint.port()).isEqualTo(6380);
    assertThat(endpoint.tls()).isTrue();
    assertThat(endpoint.user()).contains("app");
    assertThat(endpoint.password().orElseThrow().reveal()).isEqualTo("s3cret");
    assertThat(config.store().redis().connections()).isEqualTo(5);
    assertThat(config.store().redis().timeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(config.store().redis().keyPrefix()).isEqualTo("rl_");
  }

  @Test
  void redisUrl_withSluiceStore_keepsTheSluiceChoice() {
    assertThat(serve(Map.of("REDIS_URL", "cache:6379", "SLUICE_STORE", "memory")).store().kind())
        .isEqualTo(StoreKind.MEMORY);
    assertThat(serve(Map.of("REDIS_URL", "cache:6379"), "--store=memory").store().kind())
        .isEqualTo(StoreKind.MEMORY);
    assertThat(serve(Map.of("BACKEND_TYPE", "redis")).store().kind()).isEqualTo(StoreKind.REDIS);
  }

  @Test
  void valuesSluiceCannotHonour_areErrorsNamingTheVariable() {
    assertThat(ReferenceEnvironment.of(Map.of("BACKEND_TYPE", "memcache")).errors())
        .singleElement()
        .asString()
        .startsWith("BACKEND_TYPE=memcache: not supported");
    assertThat(ReferenceEnvironment.of(Map.of("LOG_FORMAT", "xml")).errors()).hasSize(1);
  }

  @Test
  void redisTypes_becomeTheUrlForms() {
    assertThat(
            ReferenceEnvironment.of(
                    Map.of("REDIS_TYPE", "CLUSTER", "REDIS_URL", "a:1,b:2", "REDIS_AUTH", "pw"))
                .sluiceView())
        .containsEntry("SLUICE_REDIS_URL", "redis-cluster://:pw@a:1,b:2");
    assertThat(
            ReferenceEnvironment.of(
                    Map.of("REDIS_TYPE", "sentinel", "REDIS_URL", "mymaster,s1:26379,s2:26379"))
                .sluiceView())
        .containsEntry("SLUICE_REDIS_URL", "redis-sentinel://s1:26379,s2:26379/mymaster");
    assertThat(
            ReferenceEnvironment.of(
                    Map.of("REDIS_SOCKET_TYPE", "unix", "REDIS_URL", "/var/run/redis.sock"))
                .sluiceView())
        .containsEntry("SLUICE_REDIS_URL", "unix:///var/run/redis.sock");
  }

  @Test
  void behaviourVariables_mapOntoServe() {
    ServeConfig config =
        serve(
            Map.of(
                "SHADOW_MODE", "true",
                "LIMIT_RESPONSE_HEADERS_ENABLED", "true",
                "LIMIT_LIMIT_HEADER", "X-Limit",
                "LIMIT_REMAINING_HEADER", "X-Remaining",
                "LIMIT_RESET_HEADER", "X-Reset",
                "LOCAL_CACHE_SIZE_IN_BYTES", "1048576"));

    assertThat(config.limiter().globalShadowMode()).isTrue();
    assertThat(config.headers().enabled()).isTrue();
    assertThat(config.headers().limitHeader()).isEqualTo("X-Limit");
    assertThat(config.headers().remainingHeader()).isEqualTo("X-Remaining");
    assertThat(config.headers().resetHeader()).isEqualTo("X-Reset");
    assertThat(config.limiter().localCacheSize())
        .isEqualTo(1048576 / ReferenceEnvironment.CACHE_ENTRY_BYTES);
  }

  @Test
  void healthyWithAtLeastOneConfigLoaded_needsRulesAndStartsWithout() {
    Map<String, String> env = Map.of("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", "t");
    ServeConfig config = serve(env);

    assertThat(config.server().healthNeedsRules()).isTrue();
    assertThat(config.rules().allowEmptyRules()).isTrue();
    assertThat(warnings(env)).isEmpty();
    assertThat(serve(Map.of()).server().healthNeedsRules()).isFalse();
    assertThat(
            serve(Map.of("HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED", "false"))
                .rules()
                .allowEmptyRules())
        .isFalse();
  }

  @Test
  void redisHealthCheckActiveConnection_healthFollowsRedisOnlyWhenTheReferenceWouldAskIt() {
    assertThat(followsStore(Map.of())).as("no Redis: the default").isTrue();
    assertThat(followsStore(Map.of("REDIS_URL", "redis:6379"))).as("Redis URL alone").isFalse();
    assertThat(followsStore(Map.of("BACKEND_TYPE", "redis"))).as("backend redis").isFalse();
    assertThat(
            followsStore(
                Map.of("REDIS_URL", "redis:6379", "REDIS_HEALTH_CHECK_ACTIVE_CONNECTION", "true")))
        .as("asked for")
        .isTrue();
    assertThat(
            followsStore(Map.of("REDIS_URL", "redis:6379", "SLUICE_HEALTH_FOLLOWS_STORE", "true")))
        .as("SLUICE_* twin beats the reference")
        .isTrue();
    assertThat(followsStore(Map.of("REDIS_URL", "redis:6379"), "--health-follows-store"))
        .as("flag")
        .isTrue();
    assertThat(
            warnings(
                Map.of("REDIS_URL", "redis:6379", "REDIS_HEALTH_CHECK_ACTIVE_CONNECTION", "false")))
        .doesNotContain("REDIS_HEALTH_CHECK_ACTIVE_CONNECTION");
  }

  private static boolean followsStore(Map<String, String> env, String... args) {
    return serve(env, args).settings().get(ServerSettings.HEALTH_FOLLOWS_STORE);
  }

  @Test
  void quotaModeAndNearLimitRatio_goBooleansAndAFloat() {
    Map<String, String> env = Map.of("QUOTA_MODE", "1", "NEAR_LIMIT_RATIO", "0.5");
    ServeConfig config = serve(env);

    assertThat(config.limiter().globalQuotaMode()).isTrue();
    assertThat(config.limiter().nearLimitRatio()).isEqualTo(0.5f);
    assertThat(warnings(env)).isEmpty();
    assertThat(serve(Map.of()).limiter().globalQuotaMode()).isFalse();
    assertThat(serve(Map.of()).limiter().nearLimitRatio()).isEqualTo(0.8f);
    assertThatThrownBy(() -> serve(Map.of("NEAR_LIMIT_RATIO", "1.5")))
        .hasMessageContaining("near limit ratio must be in (0, 1]: 1.5");
  }

  @Test
  void expirationJitterAndClientSan_mapOntoServe() {
    Map<String, String> env =
        Map.of(
            "EXPIRATION_JITTER_MAX_SECONDS", "300",
            "REDIS_URL", "localhost:6379",
            "GRPC_SERVER_USE_TLS", "true",
            "GRPC_SERVER_TLS_CERT", "/tls/cert.pem",
            "GRPC_SERVER_TLS_KEY", "/tls/key.pem",
            "GRPC_CLIENT_TLS_CACERT", "/tls/ca.pem",
            "GRPC_CLIENT_TLS_SAN", "envoy.mesh.local");
    ServeConfig config = serve(env);

    assertThat(config.store().redis().expirationJitter()).isEqualTo(Duration.ofSeconds(300));
    assertThat(config.server().access().grpcTls().orElseThrow().clientSan())
        .contains("envoy.mesh.local");
    assertThat(warnings(env)).isEmpty();
    assertThat(serve(Map.of()).store().redis().expirationJitter()).isZero();
  }

  @Test
  void perSecondRedis_mapsOntoASecondRedisConfig() {
    Map<String, String> env =
        Map.of(
            "REDIS_URL", "main:6379",
            "REDIS_SOCKET_TYPE", "tcp",
            "CACHE_KEY_PREFIX", "p_",
            "REDIS_PERSECOND", "true",
            "REDIS_PERSECOND_SOCKET_TYPE", "tcp",
            "REDIS_PERSECOND_URL", "fast:6380",
            "REDIS_PERSECOND_AUTH", "secret",
            "REDIS_PERSECOND_POOL_SIZE", "4",
            "REDIS_PERSECOND_TIMEOUT", "50ms");
    ServeConfig config = serve(env);

    var second = config.store().perSecondRedis().orElseThrow();
    assertThat(second.endpoint().address().toString()).contains("fast").contains("6380");
    assertThat(second.connections()).isEqualTo(4);
    assertThat(second.timeout()).isEqualTo(Duration.ofMillis(50));
    assertThat(second.keyPrefix()).isEqualTo("p_");
    assertThat(second.toString()).doesNotContain("secret");
    assertThat(warnings(env)).isEmpty();
    assertThat(serve(Map.of("REDIS_URL", "main:6379")).store().perSecondRedis()).isEmpty();
  }

  @Test
  void notImplementedVariables_areNamedInOneWarningLine() {
    String line =
        warnings(
            Map.of(
                "USE_STATSD", "true",
                "MEMCACHE_HOST_PORT", "m:11211",
                "REDIS_PIPELINE_WINDOW", "150us",
                "STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT", "true"));

    assertThat(line)
        .doesNotContain("\n")
        .contains("USE_STATSD (statsd is not supported; scrape Prometheus /metrics)")
        .contains("MEMCACHE_HOST_PORT (memcache is not supported; use Redis)")
        .contains("REDIS_PIPELINE_WINDOW (not needed")
        // Honoured since --charge-denied exists (issue 12): SLUICE_CHARGE_DENIED=false.
        .doesNotContain("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT");
    assertThat(warnings(Map.of("PORT", "8080"))).isEmpty();
  }

  @Test
  void usePrometheus_servesTheReferenceNamesOnPrometheusAddr() {
    ServeConfig config =
        serve(
            Map.of(
                "USE_PROMETHEUS", "true",
                "PROMETHEUS_ADDR", ":19001",
                "PROMETHEUS_PATH", "/stats",
                "PROMETHEUS_MAPPER_YAML", "/etc/statsd-exporter/conf.yaml",
                "PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS", "True"));

    ReferenceMetricsConfig metrics = config.referenceMetrics();
    assertThat(metrics.address()).contains(new InetSocketAddress(19001));
    assertThat(metrics.path()).isEqualTo("/stats");
    assertThat(metrics.mapper()).contains(Path.of("/etc/statsd-exporter/conf.yaml"));
    assertThat(metrics.responseTimeInMillis()).isTrue();
    assertThat(
            warnings(
                Map.of(
                    "USE_PROMETHEUS", "true",
                    "PROMETHEUS_ADDR", ":19001",
                    "PROMETHEUS_MAPPER_YAML", "/etc/statsd-exporter/conf.yaml")))
        .isEmpty();
  }

  @Test
  void usePrometheus_defaultsAsTheReference() {
    ReferenceMetricsConfig metrics = serve(Map.of("USE_PROMETHEUS", "1")).referenceMetrics();

    assertThat(metrics.address()).contains(new InetSocketAddress(9090));
    assertThat(metrics.path()).isEqualTo("/metrics");
    assertThat(metrics.mapper()).isEmpty();
    assertThat(metrics.responseTimeInMillis()).isFalse();
    assertThat(serve(Map.of()).referenceMetrics()).isEqualTo(ReferenceMetricsConfig.OFF);
  }

  @Test
  void prometheusVariablesWithoutUsePrometheus_areIgnoredWithAWarning() {
    Map<String, String> env = Map.of("USE_PROMETHEUS", "false", "PROMETHEUS_ADDR", ":19001");

    assertThat(serve(env).referenceMetrics().enabled()).isFalse();
    assertThat(warnings(env))
        .contains("PROMETHEUS_ADDR (ignored without USE_PROMETHEUS=true, as by the reference)");
  }

  @Test
  void sluiceTwin_beatsPrometheusAddr() {
    ReferenceMetricsConfig metrics =
        serve(
                Map.of(
                    "USE_PROMETHEUS", "true",
                    "PROMETHEUS_ADDR", ":19001",
                    "SLUICE_REFERENCE_METRICS_ADDR", "127.0.0.1:19002"))
            .referenceMetrics();

    assertThat(metrics.address()).contains(new InetSocketAddress("127.0.0.1", 19002));
  }

  @Test
  void logLevelAndFormat_translateLogrusNames() {
    ReferenceEnvironment reference =
        ReferenceEnvironment.of(Map.of("LOG_LEVEL", "warning", "LOG_FORMAT", "JSON"));

    assertThat(reference.logLevel()).contains("WARN");
    assertThat(reference.logFormat()).isEqualTo("json");
    assertThat(ReferenceEnvironment.of(Map.of()).logFormat()).isEqualTo("text");
  }

  @Test
  void goDuration_parsesTheReferenceForms() {
    assertThat(ReferenceEnvironment.goDuration("24h")).isEqualTo(Duration.ofHours(24));
    assertThat(ReferenceEnvironment.goDuration("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(ReferenceEnvironment.goDuration("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(ReferenceEnvironment.goDuration("500us")).isEqualTo(Duration.ofNanos(500_000));
    assertThat(ReferenceEnvironment.goDuration("0")).isZero();
  }

  @Test
  void debugPort_otherThanPort_opensTheDebugListenerThere() {
    ServeConfig config = serve(Map.of("DEBUG_PORT", "6070", "PORT", "8080"));

    assertThat(config.server().access().debugPort()).hasValue(6070);
    assertThat(config.server().httpPort()).isEqualTo(8080);
    assertThat(warnings(Map.of("DEBUG_PORT", "6070"))).isEmpty();
  }

  @Test
  void debugPort_equalToPort_orUnset_opensNothing() {
    assertThat(serve(Map.of("DEBUG_PORT", "9000", "PORT", "9000")).server().access().debugPort())
        .isEmpty();
    assertThat(serve(Map.of("DEBUG_PORT", "8080")).server().access().debugPort()).isEmpty();
    assertThat(serve(Map.of()).server().access().debugPort()).as("not 6070 unasked").isEmpty();
  }

  @Test
  void debugHost_ofItsOwnListener_isWarnedAbout_elseBindsTheHttpPort() {
    Map<String, String> separate = Map.of("DEBUG_PORT", "6070", "DEBUG_HOST", "127.0.0.1");

    assertThat(serve(separate).server().access().httpBind()).isEqualTo("0.0.0.0");
    assertThat(warnings(separate)).contains("DEBUG_HOST=127.0.0.1 (the debug port listens");
    assertThat(serve(Map.of("DEBUG_HOST", "127.0.0.1")).server().access().httpBind())
        .isEqualTo("127.0.0.1");
  }
}
