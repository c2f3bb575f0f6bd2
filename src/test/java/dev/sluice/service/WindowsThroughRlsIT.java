package dev.sluice.service;

import dev.sluice.config.StoreConfig;
import dev.sluice.testing.RunningSluice;

/** {@link WindowsThroughRlsContract} on the memory store. */
class WindowsThroughRlsIT extends WindowsThroughRlsContract {
  @Override
  protected StoreConfig store() {
    return RunningSluice.memoryStore();
  }

  @Override
  protected boolean instancesShareTheStore() {
    return false;
  }
}
