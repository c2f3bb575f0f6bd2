/**
 * Capture of sampled requests ({@code --capture-file}): the request path hands a decided call to
 * {@link dev.sluice.capture.RequestCapture} and goes on; one writer thread turns it into a JSON
 * line of {@code sluice replay}'s input format ({@link dev.sluice.replay.CapturedRequest}),
 * optionally with keyed hashes of the values, into a private, size-bounded rotating file. Nothing
 * here ever blocks a request.
 */
package dev.sluice.capture;
