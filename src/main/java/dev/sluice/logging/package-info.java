/**
 * Writing untrusted values into log lines without letting them forge lines ({@link
 * dev.sluice.logging.LogText}), warnings a client can repeat at will logged once per kind per
 * interval with a count ({@link dev.sluice.logging.RepeatedLines}), and java.util.logging routed
 * into SLF4J ({@link dev.sluice.logging.JulBridge}). Shared by every package that logs; depends on
 * nothing of Sluice's.
 */
package dev.sluice.logging;
