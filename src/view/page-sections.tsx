// The page's sections about the agent itself: skills, interfaces and
// capabilities, security. Each takes the typed 1.0 card (or part of it).
import type { FC } from "hono/jsx";
import type * as v1 from "../a2a/v1";
import type { SchemeEnforcement } from "../auth/edge-auth";
import { idAddsInformation, requirementText, schemeDescription, schemeSummary } from "./card-text";

const SkillArticle: FC<{ skill: v1.AgentSkill }> = ({ skill }) => (
  <article>
    <h3>
      {skill.name}
      {idAddsInformation(skill) ? (
        <>
          {" "}
          <code class="muted">{skill.id}</code>
        </>
      ) : null}
    </h3>
    <p>{skill.description}</p>
    <ul class="tags" aria-label="Tags">
      {skill.tags.map((tag) => (
        <li>{tag}</li>
      ))}
    </ul>
    {skill.examples?.length ? (
      <>
        <h4>Examples</h4>
        <ul>
          {skill.examples.map((example) => (
            <li>{example}</li>
          ))}
        </ul>
      </>
    ) : null}
    {skill.securityRequirements?.length ? (
      <p class="muted">Requires: {skill.securityRequirements.map(requirementText).join(" or ")}</p>
    ) : null}
  </article>
);

export const SkillsSection: FC<{ skills: v1.AgentCard["skills"] }> = ({ skills }) => (
  <section aria-labelledby="skills">
    <h2 id="skills">Skills ({skills.length})</h2>
    {skills.length === 0 ? <p class="muted">This agent advertises no skills.</p> : null}
    {skills.map((skill) => (
      <SkillArticle skill={skill} />
    ))}
  </section>
);

const InterfaceRow: FC<{ entry: v1.AgentInterface }> = ({ entry }) => (
  <tr>
    <td>
      <code>{entry.url}</code>
    </td>
    <td>{entry.protocolBinding}</td>
    <td>{entry.protocolVersion}</td>
  </tr>
);

const Extensions: FC<{ extensions: v1.AgentCapabilities["extensions"] }> = ({ extensions }) =>
  extensions?.length ? (
    <ul>
      {extensions.map((e) => (
        <li>
          <code>{e.uri}</code>
          {e.required ? " (required)" : ""}
          {e.description ? ` — ${e.description}` : ""}
        </li>
      ))}
    </ul>
  ) : null;

const yesNo = (on: boolean | undefined) => (on ? "yes" : "no");
/** What the edge does with push configs (docs/push-notifications.md): guarded here; relayed with PUSH_RELAY=on. */
const PUSH_NOTE = {
  direct: " (webhook URLs guarded at the edge; notifications sent by the agent, not relayed)",
  relayed: " (webhook URLs guarded at the edge; notifications relayed by the edge, signed with its JWKS)",
};

export const InterfacesSection: FC<{ card: v1.AgentCard; pushRelayed: boolean }> = ({ card, pushRelayed }) => (
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
        {card.supportedInterfaces.map((entry) => (
          <InterfaceRow entry={entry} />
        ))}
      </tbody>
    </table>
    <p class="muted">
      Streaming: {yesNo(card.capabilities.streaming)} · Push notifications: {yesNo(card.capabilities.pushNotifications)}
      {card.capabilities.pushNotifications ? PUSH_NOTE[pushRelayed ? "relayed" : "direct"] : ""} · Extended card:{" "}
      {yesNo(card.capabilities.extendedAgentCard)} · Input: {card.defaultInputModes.join(", ")} · Output:{" "}
      {card.defaultOutputModes.join(", ")}
    </p>
    <Extensions extensions={card.capabilities.extensions} />
  </section>
);

const ENFORCEMENT_TEXT: Record<SchemeEnforcement, string> = {
  edge: "Enforced at the edge.",
  closed: "Required, but the edge has no verifier for it: calls that rely on it are refused.",
  origin: "Not checked at the edge (EDGE_AUTH=off): the agent behind it decides.",
};

type Enforcement = Readonly<Record<string, SchemeEnforcement>>;

const SchemeList: FC<{ schemes: NonNullable<v1.AgentCard["securitySchemes"]>; enforcement: Enforcement }> = ({ schemes, enforcement }) => (
  <dl>
    {Object.entries(schemes).map(([name, scheme]) => {
      const state = enforcement[name];
      return (
        <>
          <dt>
            <code>{name}</code>
          </dt>
          <dd>
            {schemeSummary(scheme)}
            {schemeDescription(scheme) ? ` — ${schemeDescription(scheme)}` : ""}
            {state ? <span class={`enforcement ${state}`}> {ENFORCEMENT_TEXT[state]}</span> : null}
          </dd>
        </>
      );
    })}
  </dl>
);

export const SecuritySection: FC<{ card: v1.AgentCard; enforcement: Enforcement }> = ({ card, enforcement }) => (
  <section aria-labelledby="security">
    <h2 id="security">Security</h2>
    {card.securitySchemes ? (
      <SchemeList schemes={card.securitySchemes} enforcement={enforcement} />
    ) : (
      <p class="muted">No security schemes declared.</p>
    )}
    {card.securityRequirements?.length ? <p>Required: {card.securityRequirements.map(requirementText).join(" or ")}</p> : null}
  </section>
);
