package dev.sluice.rules.xds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ServeConfig;
import dev.sluice.config.XdsConfig;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.RunningSluice;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Closing Sluice while its xDS client is still connecting: the channel's last callbacks run on the
 * xDS thread, which the root shuts down right after the client. They used to be rejected there, and
 * gRPC logged each rejection as a SEVERE "uncaught exception ... Panic!" on every such shutdown.
 */
class XdsRuleClientCloseTest {
  // Held strongly: JUL keeps loggers weakly, and a collected logger would drop the handler.
  private static final Logger GRPC = Logger.getLogger("io.grpc");

  private final List<LogRecord> severe = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
            severe.add(record);
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void listen() {
    GRPC.addHandler(capture);
  }

  @AfterEach
  void stopListening() {
    GRPC.removeHandler(capture);
  }

  @Test
  void close_serverUnreachable_grpcLogsNothingSevere() {
    // Nothing listens on port 1. Closed at once, the channel is still resolving the address: the
    // moment whose callbacks were rejected (closing later, between attempts, never showed it).
    ServeConfig config =
        RunningSluice.config(RunningSluice.memoryStore()).toBuilder()
            .ruleSource(XdsConfig.plaintext("127.0.0.1:1"))
            .build();
    for (int run = 0; run < 4; run++) {
      RunningSluice.start("domain: api\n", config, FakeClock.atEpochSecond(1_700_000_000L)).close();
    }

    assertThat(severe).extracting(LogRecord::getMessage).isEmpty();
  }
}
