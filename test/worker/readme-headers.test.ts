// The table of card response headers (docs/what-it-serves.md) is what the
// worker sends: each cell that is one literal value is compared with a real
// response, so the document cannot drift from the code (it once said
// `Vary: A2A-Version`).
import { describe, expect, it } from "vitest";
import readme from "../../docs/what-it-serves.md?raw";
import { call } from "../support/worker";

const HEADER_ROW = "| header | `agent-card.json` | `agent.json` |";

/** Rows of the table: header name -> [agent-card.json cell, agent.json cell]. */
function documentedHeaders(): Map<string, [string, string]> {
  const start = readme.indexOf(HEADER_ROW);
  expect(start, "the card header table of docs/what-it-serves.md").toBeGreaterThan(-1);
  const rows = new Map<string, [string, string]>();
  for (const line of readme.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    const [name = "", card = "", legacy = ""] = line
      .split("|")
      .slice(1, 4)
      .map((cell) => cell.trim());
    rows.set(name.replace(/`/g, ""), [card, legacy]);
  }
  return rows;
}

/** A cell that is exactly one `literal`; undefined for prose. */
const literal = (cell: string) => /^`([^`]+)`$/.exec(cell)?.[1];

describe("the documented card headers", () => {
  it("match a real response of each path, cell by cell", async () => {
    const rows = documentedHeaders();
    let compared = 0;
    for (const [index, path] of ["/.well-known/agent-card.json", "/.well-known/agent.json"].entries()) {
      const response = await call(`https://agents.example.com${path}`);
      expect(response.status).toBe(200);
      for (const [name, cells] of rows) {
        const value = literal(cells[index] ?? "");
        if (value === undefined) continue;
        expect(response.headers.get(name), `${name} on ${path}`).toBe(value);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(10); // five literal headers per path
  });
});
