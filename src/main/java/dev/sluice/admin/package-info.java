/**
 * The operator surface. {@link dev.sluice.admin.AdminApi} is the one facade both transports call
 * (the admin HTTP port and {@code sluice.admin.v1.SluiceAdmin} on its own gRPC port): one access
 * check ({@link dev.sluice.admin.AdminAccess}), one audit line per write, one rendering into the
 * {@code proto/} messages, one exception-to-status table ({@link dev.sluice.admin.AdminFailure}).
 * Reads state through objects the composition root hands in; never decides a rate limit itself.
 */
package dev.sluice.admin;
