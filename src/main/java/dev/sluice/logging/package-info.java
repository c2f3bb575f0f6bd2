/**
 * Writing untrusted values into log lines without letting them forge lines ({@link
 * dev.sluice.logging.LogText}). Shared by every package that logs request data; depends on nothing.
 */
package dev.sluice.logging;
