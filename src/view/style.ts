// The page's only styles, inline (its CSP allows no other): light and dark.
export const STYLE = [
  "",
  ":root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--chip:#eef1f4;--accent:#0b5cad}",
  "@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--chip:#21262d;--accent:#6cb6ff}}",
  // overflow-wrap:anywhere: long URLs and ids break instead of widening a phone's page, tables and flex items included.
  "body{font:16px/1.5 system-ui,sans-serif;color:var(--fg);max-width:56rem;margin:0 auto;padding:1.5rem;overflow-wrap:anywhere}" +
    "@media (max-width:30rem){body{padding:1rem}}",
  "a{color:var(--accent)}h1{margin:.2rem 0}h2{border-bottom:1px solid var(--line);padding-bottom:.3rem;margin-top:2rem}",
  ".muted{color:var(--muted)}header{display:flex;gap:1rem;align-items:center}",
  // The initials badge, and the same badge over a broken icon (page.tsx, Icon; the img's border-radius
  // rounds it). Sized by min-/max- only: chromium frames a broken img whose width and height are set.
  ".icon{flex:none;min-width:64px;max-width:64px;min-height:64px;max-height:64px;border-radius:12px}img.icon{position:relative}" +
    "span.icon,img.icon::after{display:grid;place-items:center;background:var(--chip);color:var(--accent);font-size:1.5rem;font-weight:700}" +
    "img.icon::after{content:attr(data-initials);position:absolute;inset:0}",
  "ul.tags{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4rem}" +
    "ul.tags li{background:var(--chip);border-radius:1rem;padding:0 .6rem;font-size:.9rem}",
  // Cells keep their words whole while there is room, URLs give way first: a phone's table wraps its URLs, not "Binding".
  "table{border-collapse:collapse;width:100%}td code{overflow-wrap:anywhere}" +
    "th,td{text-align:left;border-bottom:1px solid var(--line);padding:.35rem .5rem;vertical-align:top;overflow-wrap:break-word}",
  "pre{background:var(--chip);padding:.8rem;border-radius:6px;overflow-x:auto;user-select:all}code{font-family:ui-monospace,monospace}",
  "article{border:1px solid var(--line);border-radius:8px;padding:.2rem 1rem;margin:.8rem 0}",
  ".enforcement{font-weight:600}.enforcement.closed{color:#c62828}",
  ".warning{border-left:4px solid #c62828;padding:.3rem .8rem;background:var(--chip)}ul.repairs{font-size:.9rem}",
].join("\n");
