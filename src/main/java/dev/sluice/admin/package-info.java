/**
 * The operator surface on the admin HTTP port: {@code /healthcheck} today; rules, metrics and
 * counter inspection later. Reads state through small interfaces handed in by the composition root;
 * never decides a rate limit itself.
 */
package dev.sluice.admin;
