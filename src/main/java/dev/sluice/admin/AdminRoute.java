package dev.sluice.admin;

/**
 * Answers the requests of one path (and the paths under it) of the admin HTTP port. A route that
 * throws, whatever it throws, is answered 500 by the server.
 */
@FunctionalInterface
public interface AdminRoute {
  /** The answer to {@code request}, whose body has been read whole. */
  AdminResponse answer(AdminRequest request) throws Exception;
}
