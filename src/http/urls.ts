// URL joining for public bases (scheme://host[/prefix]) and absolute paths.

/** Joins a public base and an absolute path: `https://a.example/team` + `/a2a` = `https://a.example/team/a2a`. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, "") + (path.startsWith("/") ? path : `/${path}`);
}
