// The human view in a real browser: Debian chromium driven by playwright-core,
// with JavaScript disabled, against the worker under `wrangler dev`.
// Never skipped: a missing /usr/bin/chromium is installed first (as root, with
// apt-get; a minute or two), or the test fails saying how to install it.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureChromium } from "../support/chromium";
import { ROOT, type Started, startWranglerDev } from "../support/processes";

/** Room for `apt-get update` + `apt-get install chromium` on a slow mirror. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

describe("the card page in chromium", () => {
  let executablePath: string;
  let dev: Started;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    executablePath = await ensureChromium();
    ({ dev, base } = await startWranglerDev());
    browser = await chromium.launch({
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }, INSTALL_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
  });

  it("renders name, skills, interfaces and the curl command without JavaScript, and saves a screenshot", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 1400 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    const response = await page.goto(`${base}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe("Acme Travel Concierge — A2A agent");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Acme Travel Concierge");
    expect(await page.getByRole("heading", { level: 3 }).count()).toBe(4);
    expect(await page.getByRole("heading", { name: /Skills \(4\)/ }).isVisible()).toBe(true);
    expect(await page.locator("table").getByText(`${base}/`).count()).toBe(2);
    expect(await page.locator("pre").textContent()).toBe(`curl -s '${base}/.well-known/agent-card.json' -H 'A2A-Version: 1.0'`);
    // The same URL a browser navigates to as a card path also shows the page.
    await page.goto(`${base}/.well-known/agent-card.json`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Acme Travel Concierge");
    const out = join(ROOT, "test-output");
    mkdirSync(out, { recursive: true });
    await page.goto(`${base}/`);
    await page.screenshot({ path: join(out, "card-page.png"), fullPage: true });
    expect(existsSync(join(out, "card-page.png"))).toBe(true);
    // The sample icon lives on acme.example.com, which this sandbox cannot resolve.
    expect(
      errors.filter((e) => !e.includes("ERR_NAME_NOT_RESOLVED")),
      errors.join("\n"),
    ).toEqual([]);
    await context.close();
  });
});
