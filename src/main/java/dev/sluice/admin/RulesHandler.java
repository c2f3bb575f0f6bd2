package dev.sluice.admin;

import dev.sluice.admin.v1.ReloadResponse;

/**
 * {@code GET /rules}: {@code GetRulesResponse} as JSON. {@code POST /rules/reload}: {@code
 * ReloadResponse}, 200 when loaded or unchanged, 422 when rejected (with the problems).
 */
public final class RulesHandler implements AdminRoute {
  private final AdminApi api;

  public RulesHandler(AdminApi api) {
    this.api = api;
  }

  @Override
  public AdminResponse answer(AdminRequest request) {
    String path = request.path();
    if (path.equals("/rules/reload")) {
      if (!request.isMethod("POST")) {
        return AdminResponse.methodNotAllowed("POST");
      }
      return AdminResponse.answer(
          api.reload(request.caller()),
          r -> r.getOutcome() == ReloadResponse.Outcome.REJECTED ? 422 : 200);
    }
    if (path.equals("/rules") || path.equals("/rules/")) {
      if (!request.isMethod("GET")) {
        return AdminResponse.methodNotAllowed("GET");
      }
      return AdminResponse.answer(api.rules(request.caller()), r -> 200);
    }
    return AdminResponse.notFound();
  }
}
