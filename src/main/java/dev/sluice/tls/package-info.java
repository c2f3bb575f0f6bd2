/**
 * Reading the PEM files TLS is configured with, shared by the RLS port ({@code server}), the xDS
 * client ({@code rules.xds}) and the Redis connections ({@code store.redis}); depends on nothing.
 */
package dev.sluice.tls;
