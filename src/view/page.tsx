// The card as a page for people: server-rendered with Hono JSX, no client
// script, small inline CSS. Everything shown comes from the strict 1.0 card
// that the JSON endpoint serves (same memo, same signatures).
import type { FC } from "hono/jsx";

type Card = Record<string, any>;

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--chip:#eef1f4;--accent:#0b5cad}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--chip:#21262d;--accent:#6cb6ff}}
body{font:16px/1.5 system-ui,sans-serif;color:var(--fg);max-width:56rem;margin:0 auto;padding:1.5rem}
a{color:var(--accent)}h1{margin:.2rem 0}h2{border-bottom:1px solid var(--line);padding-bottom:.3rem;margin-top:2rem}
.muted{color:var(--muted)}header{display:flex;gap:1rem;align-items:center}header img{width:64px;height:64px;border-radius:12px}
ul.tags{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4rem}ul.tags li{background:var(--chip);border-radius:1rem;padding:0 .6rem;font-size:.9rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;border-bottom:1px solid var(--line);padding:.35rem .5rem;vertical-align:top}
pre{background:var(--chip);padding:.8rem;border-radius:6px;overflow-x:auto;user-select:all}code{font-family:ui-monospace,monospace}
article{border:1px solid var(--line);border-radius:8px;padding:.2rem 1rem;margin:.8rem 0}`;

function schemeSummary(wrapper: Card): string {
  const [kind, scheme] = Object.entries(wrapper)[0] ?? ["unknown", {}];
  const s = scheme as Card;
  switch (kind) {
    case "apiKeySecurityScheme":
      return `API key in ${s.location} "${s.name}"`;
    case "httpAuthSecurityScheme":
      return `HTTP ${s.scheme}${s.bearerFormat ? ` (${s.bearerFormat})` : ""}`;
    case "oauth2SecurityScheme":
      return `OAuth 2.0 (${Object.keys(s.flows ?? {}).join(", ")})`;
    case "openIdConnectSecurityScheme":
      return `OpenID Connect (${s.openIdConnectUrl})`;
    case "mtlsSecurityScheme":
      return "Mutual TLS";
    default:
      return kind;
  }
}

function requirementText(requirement: Card): string {
  return Object.entries(requirement.schemes ?? {})
    .map(([name, scopes]) => ((scopes as Card).list?.length ? `${name} (${(scopes as Card).list.join(", ")})` : name))
    .join(" + ");
}

/** POSIX single quotes: nothing inside is expanded by the shell the command is pasted into. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

export interface SignatureInfo {
  alg: string;
  kid: string;
  jku?: string;
}

export const CardPage: FC<{ card: Card; cardUrl: string; signature: SignatureInfo | undefined }> = ({ card, cardUrl, signature }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${card.name} — A2A agent`}</title>
      <meta name="description" content={card.description} />
      <link rel="alternate" type="application/json" href={cardUrl} />
      <style>{STYLE}</style>
    </head>
    <body>
      <header>
        {card.iconUrl ? <img src={card.iconUrl} alt="" /> : null}
        <div>
          <h1>{card.name}</h1>
          <p class="muted">
            Version {card.version}
            {card.provider ? (
              <>
                {" · by "}
                <a href={card.provider.url}>{card.provider.organization}</a>
              </>
            ) : null}
            {card.documentationUrl ? (
              <>
                {" · "}
                <a href={card.documentationUrl}>documentation</a>
              </>
            ) : null}
          </p>
        </div>
      </header>
      <main>
        <p>{card.description}</p>

        <section aria-labelledby="skills">
          <h2 id="skills">Skills ({card.skills.length})</h2>
          {card.skills.length === 0 ? <p class="muted">This agent advertises no skills.</p> : null}
          {card.skills.map((skill: Card) => (
            <article>
              <h3>
                {skill.name} <code class="muted">{skill.id}</code>
              </h3>
              <p>{skill.description}</p>
              <ul class="tags" aria-label="Tags">
                {skill.tags.map((tag: string) => (
                  <li>{tag}</li>
                ))}
              </ul>
              {skill.examples?.length ? (
                <>
                  <h4>Examples</h4>
                  <ul>
                    {skill.examples.map((example: string) => (
                      <li>{example}</li>
                    ))}
                  </ul>
                </>
              ) : null}
              {skill.securityRequirements?.length ? <p class="muted">Requires: {skill.securityRequirements.map(requirementText).join(" or ")}</p> : null}
            </article>
          ))}
        </section>

        <section aria-labelledby="interfaces">
          <h2 id="interfaces">Interfaces</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Binding</th>
                <th scope="col">A2A version</th>
              </tr>
            </thead>
            <tbody>
              {card.supportedInterfaces.map((i: Card) => (
                <tr>
                  <td>
                    <code>{i.url}</code>
                  </td>
                  <td>{i.protocolBinding}</td>
                  <td>{i.protocolVersion}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="muted">
            Streaming: {card.capabilities.streaming ? "yes" : "no"} · Push notifications: {card.capabilities.pushNotifications ? "yes" : "no"} · Extended
            card: {card.capabilities.extendedAgentCard ? "yes" : "no"} · Input: {card.defaultInputModes.join(", ")} · Output:{" "}
            {card.defaultOutputModes.join(", ")}
          </p>
          {card.capabilities.extensions?.length ? (
            <ul>
              {card.capabilities.extensions.map((e: Card) => (
                <li>
                  <code>{e.uri}</code>
                  {e.required ? " (required)" : ""}
                  {e.description ? ` — ${e.description}` : ""}
                </li>
              ))}
            </ul>
          ) : null}
        </section>

        <section aria-labelledby="security">
          <h2 id="security">Security</h2>
          {card.securitySchemes ? (
            <dl>
              {Object.entries(card.securitySchemes as Card).map(([name, scheme]) => (
                <>
                  <dt>
                    <code>{name}</code>
                  </dt>
                  <dd>
                    {schemeSummary(scheme as Card)}
                    {Object.values(scheme as Card)[0]?.description ? ` — ${Object.values(scheme as Card)[0].description}` : ""}
                  </dd>
                </>
              ))}
            </dl>
          ) : (
            <p class="muted">No security schemes declared.</p>
          )}
          {card.securityRequirements?.length ? <p>Required: {card.securityRequirements.map(requirementText).join(" or ")}</p> : null}
        </section>

        <section aria-labelledby="signature">
          <h2 id="signature">Signature</h2>
          {signature ? (
            <p>
              Signed at the edge (A2A 1.0 §8.4) with <strong>{signature.alg}</strong> key <code>{signature.kid}</code>
              {signature.jku ? (
                <>
                  {"; public keys at "}
                  <a href={signature.jku}>{signature.jku}</a>
                </>
              ) : null}
              .
            </p>
          ) : (
            <p class="muted">This card is not signed.</p>
          )}
        </section>

        <section aria-labelledby="fetch">
          <h2 id="fetch">Fetch this card</h2>
          <pre>
            <code>{`curl -s ${shellQuote(cardUrl)} -H 'A2A-Version: 1.0'`}</code>
          </pre>
        </section>
      </main>
    </body>
  </html>
);
