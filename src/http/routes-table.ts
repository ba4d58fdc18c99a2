/**
 * The router's table as the gateway sees it: which method and path pairs exist, so that the gateway answers an
 * unknown path with 404 before it authenticates or reads a body, and reads bodies only for routes that take
 * one. Built once from the Elysia app's own route list, so it cannot drift from the router.
 */
export type RouteMatch = "found" | "wrong_method" | "none";

export interface RouteTable {
  match(method: string, pathname: string): RouteMatch;
}

export function routeTable(routes: ReadonlyArray<{ method: string; path: string }>): RouteTable {
  const compiled = routes.map((route) => ({
    method: route.method.toUpperCase(),
    pattern: new RegExp(
      `^${route.path
        .split("/")
        .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
        .join("/")}/?$`,
    ),
  }));
  return {
    match(method, pathname) {
      let pathKnown = false;
      for (const route of compiled) {
        if (!route.pattern.test(pathname)) continue;
        if (
          route.method === method ||
          route.method === "ALL" ||
          (method === "HEAD" && route.method === "GET")
        ) {
          return "found";
        }
        pathKnown = true;
      }
      return pathKnown ? "wrong_method" : "none";
    },
  };
}
