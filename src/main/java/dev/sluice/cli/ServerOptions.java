package dev.sluice.cli;

import dev.sluice.config.AccessConfig;
import dev.sluice.config.AdminHttpConfig;
import dev.sluice.config.ConnectionAge;
import dev.sluice.config.GrpcLimits;
import dev.sluice.config.GrpcTransportConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.ServerSettings;
import dev.sluice.config.SettingValues;

/**
 * The two ports and how they are served: gRPC threads and transport (event loops, flow control,
 * where ShouldRateLimit runs), connection age, what one client may hold of the gRPC port, health,
 * admin writes and the shutdown grace.
 */
final class ServerOptions {
  private final SettingValues values;

  ServerOptions(SettingValues values) {
    this.values = values;
  }

  ServerConfig toConfig(AccessConfig access) {
    return new ServerConfig(
        values.get(ServerSettings.GRPC_PORT),
        values.get(ServerSettings.HTTP_PORT),
        values.get(ServerSettings.GRPC_THREADS),
        values.get(ServerSettings.ADMIN_READ_ONLY),
        values.get(ServerSettings.SHUTDOWN_GRACE),
        new ConnectionAge(
            values.get(ServerSettings.GRPC_MAX_CONNECTION_AGE),
            values.get(ServerSettings.GRPC_MAX_CONNECTION_AGE_GRACE)),
        access,
        values.get(ServerSettings.HEALTH_NEEDS_RULES),
        new GrpcTransportConfig(
            values.get(ServerSettings.GRPC_TRANSPORT),
            values.get(ServerSettings.GRPC_EVENT_LOOPS),
            values.get(ServerSettings.GRPC_FLOW_CONTROL_WINDOW),
            values.get(ServerSettings.GRPC_RLS_HANDLERS)),
        new AdminHttpConfig(
            values.get(ServerSettings.HTTP_HEADER_TIMEOUT),
            values.get(ServerSettings.HTTP_BODY_TIMEOUT),
            values.get(ServerSettings.HTTP_MAX_CONNECTIONS),
            values.get(ServerSettings.HTTP_THREADS)),
        new GrpcLimits(
            values.get(ServerSettings.GRPC_MAX_CONCURRENT_CALLS_PER_CONNECTION),
            values.get(ServerSettings.GRPC_MAX_CONNECTIONS),
            values.get(ServerSettings.GRPC_MAX_QUEUED_BYTES),
            values.get(ServerSettings.GRPC_MAX_RESETS_PER_SECOND),
            values.get(ServerSettings.GRPC_MAX_METADATA_BYTES)));
  }
}
