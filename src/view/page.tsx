// The card as a page for people: server-rendered with Hono JSX, no client
// script, small inline CSS. Everything shown comes from the strict 1.0 card
// that the JSON endpoint serves (same memo, same signatures).
import type { FC } from "hono/jsx";
import type * as v1 from "../a2a/v1";
import type { SchemeEnforcement } from "../auth/edge-auth";
import { hasPublishedScheme, WEB_SCHEMES } from "../card/url-schemes";
import { type CardDataProps, CardDataSection } from "./card-data";
import { initials, shellQuote } from "./card-text";
import { InterfacesSection, SecuritySection, SkillsSection } from "./page-sections";
import { STYLE } from "./style";

/** What the page says about the card's first signature (from its protected header). */
export interface SignatureInfo {
  alg: string;
  kid: string;
  jku?: string;
}

// An icon that fails to load shows the initials too, without script: a broken
// image renders its ::after (a loaded one does not), which style.ts fills with
// data-initials. Not initials behind the img: chromium paints a broken image's
// frame and glyph over them, and a transparent icon would show them through.
// A link, and an image, only to a web URL. Card intake publishes no other (url-schemes.ts); the page
// checks again, as it is the one reader that turns a card's URLs into links: anything else stays text.
const webUrl = (url: string | undefined): url is string => hasPublishedScheme(url, WEB_SCHEMES);

const WebLink: FC<{ href: string | undefined; children: string }> = ({ href, children }) =>
  webUrl(href) ? <a href={href}>{children}</a> : <span>{children}</span>;

const Icon: FC<{ card: v1.AgentCard }> = ({ card }) =>
  webUrl(card.iconUrl) ? (
    <img class="icon" src={card.iconUrl} alt="" data-initials={initials(card.name)} />
  ) : (
    <span class="icon" aria-hidden="true">
      {initials(card.name)}
    </span>
  );

const PageHeader: FC<{ card: v1.AgentCard }> = ({ card }) => (
  <header>
    <Icon card={card} />
    <div>
      <h1>{card.name}</h1>
      <p class="muted">
        Version {card.version}
        {card.provider ? (
          <>
            {" · by "}
            <WebLink href={card.provider.url}>{card.provider.organization}</WebLink>
          </>
        ) : null}
        {card.documentationUrl ? (
          <>
            {" · "}
            <WebLink href={card.documentationUrl}>documentation</WebLink>
          </>
        ) : null}
      </p>
    </div>
  </header>
);

const SignatureSection: FC<{ signature: SignatureInfo | undefined; unsignedHost?: string | undefined }> = ({ signature, unsignedHost }) => (
  <section aria-labelledby="signature">
    <h2 id="signature">Signature</h2>
    {signature ? (
      <p>
        Signed at the edge (A2A 1.0 §8.4) with <strong>{signature.alg}</strong> key <code>{signature.kid}</code>
        {signature.jku ? (
          <>
            {"; public keys at "}
            <WebLink href={signature.jku}>{signature.jku}</WebLink>
          </>
        ) : null}
        .
      </p>
    ) : (
      <p class="muted">
        This card is not signed
        {unsignedHost === undefined ? (
          "."
        ) : (
          <>
            {
              " here: the edge has a signing key, but cards are signed only for hosts you name (a signature vouches for the card's URLs), and "
            }
            <code>{unsignedHost}</code>
            {" is not in HOST_ALLOWLIST (with its port) nor PUBLIC_BASE_URL."}
          </>
        )}
      </p>
    )}
  </section>
);

const FetchSection: FC<{ cardUrl: string }> = ({ cardUrl }) => (
  <section aria-labelledby="fetch">
    <h2 id="fetch">Fetch this card</h2>
    <pre>
      <code>{`curl -s ${shellQuote(cardUrl)} -H 'A2A-Version: 1.0'`}</code>
    </pre>
  </section>
);

export interface CardPageProps extends CardDataProps {
  /** The strict 1.0 card, as served (signatures included). */
  card: v1.AgentCard;
  cardUrl: string;
  signature: SignatureInfo | undefined;
  /** Per required scheme, what the edge does with it (EDGE_AUTH and the verifiers configured). */
  enforcement: Readonly<Record<string, SchemeEnforcement>>;
  /** PUSH_RELAY=on: the agent's notifications reach clients through the edge. */
  pushRelayed: boolean;
  /** The host[:port] served, when CARD_SIGNING_KEY is set but not for this host: the page says why it is unsigned. */
  unsignedHost?: string | undefined;
}

export const CardPage: FC<CardPageProps> = ({ card, cardUrl, signature, enforcement, pushRelayed, unsignedHost, ...data }) => (
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
      <PageHeader card={card} />
      <main>
        <p>{card.description}</p>

        <SkillsSection skills={card.skills} />
        <InterfacesSection card={card} pushRelayed={pushRelayed} />
        <SecuritySection card={card} enforcement={enforcement} />
        <SignatureSection signature={signature} unsignedHost={unsignedHost} />
        <FetchSection cardUrl={cardUrl} />
        <CardDataSection {...data} />
      </main>
    </body>
  </html>
);
