// The human view in a real browser: Debian chromium driven by playwright-core,
// with JavaScript disabled, against the worker as deployed (the built bundle in workerd).
// Never skipped: a missing /usr/bin/chromium is installed first (as root, with
// apt-get; a minute or two), or the test fails saying how to install it.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import kitchenSink from "../fixtures/kitchen-sink.json";
import bundled from "../fixtures/sample-card.json";
import { ensureChromium } from "../support/chromium";
import { type Served, startWorker } from "../support/e2e";
import { ROOT } from "../support/processes";

/** Room for `apt-get update` + `apt-get install chromium` on a slow mirror. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

const longPath = (host: string) => `https://${host}/${"a-rather-long-path-segment/".repeat(5)}index.html`;
/** The kitchen sink with every long thing a phone must wrap: unbroken words, URLs, a skill id, a tag, an example. */
const longWords = {
  ...kitchenSink,
  name: "Kitchen Sink Agent Supercalifragilisticexpialidociousness",
  description: `Unbroken: ${"x".repeat(120)}`,
  provider: { organization: "Example Organisation With A Long Name", url: longPath("org.example.org") },
  documentationUrl: longPath("docs.example.org"),
  capabilities: { ...kitchenSink.capabilities, extensions: [{ uri: longPath("extensions.example.org"), required: true }] },
  securitySchemes: { ...kitchenSink.securitySchemes, oidc: { type: "openIdConnect", openIdConnectUrl: longPath("login.example.org") } },
  skills: [
    ...kitchenSink.skills,
    {
      name: "Long identifiers",
      id: "a_very_long_skill_identifier_that_peers_concatenate_into_tool_names_0123456789",
      tags: ["averyveryverylongtagwithoutanyspacesatalltotestwrapping"],
      examples: [longPath("examples.example.org")],
    },
  ],
};
/**
 * Cards in local KV, one per hostname under .localhost (chromium resolves those
 * to loopback itself); 127.0.0.1 keeps the bundled card.
 */
const HOSTS: Record<string, unknown> = {
  "kitchen.localhost": kitchenSink,
  "long.localhost": longWords,
  // The bundled card without its icon: the badge an unreachable icon must look like.
  "noicon.localhost": { ...bundled, iconUrl: undefined },
};

const isLocal = (url: URL) => url.hostname === "127.0.0.1" || url.hostname.endsWith(".localhost");

/**
 * How far the page reaches sideways: the document's scroll width against the
 * viewport, and every element (outside a pre, which scrolls inside itself)
 * whose box ends past the viewport's right edge, so that content clipped by an
 * overflow:hidden counts too.
 */
function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const width: number = doc.documentElement.clientWidth;
    const outside = [...doc.body.querySelectorAll("*")]
      .filter((e: any) => !e.parentElement.closest("pre") && e.getBoundingClientRect().right > width + 0.5)
      .map((e: any) => `${e.tagName.toLowerCase()} ${Math.round(e.getBoundingClientRect().right)}px: ${e.textContent.slice(0, 50)}`);
    return {
      scrollWidth: doc.documentElement.scrollWidth as number,
      clientWidth: width,
      innerWidth: (globalThis as any).innerWidth as number,
      outside,
    };
  });
}

describe("the card page in chromium", () => {
  let executablePath: string;
  let dev: Served;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    executablePath = await ensureChromium();
    ({ dev, base } = await startWorker({}, { documents: HOSTS }));
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

  const at = (host: string) => `http://${host}:${new URL(base).port}/`;

  /** A phone-wide context without JavaScript whose requests off this machine all fail fast (or get a red square for an icon). */
  async function phone(
    width: number,
    { icon = "unreachable", colorScheme = "light" }: { icon?: "unreachable" | "red"; colorScheme?: "light" | "dark" } = {},
  ): Promise<BrowserContext> {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 }, colorScheme });
    await context.route(
      (url) => !isLocal(url),
      (route) =>
        icon === "red"
          ? route.fulfill({
              contentType: "image/svg+xml",
              body: '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/></svg>',
            })
          : route.abort("addressunreachable"),
    );
    return context;
  }

  /** The largest difference in any colour channel between two screenshots of one size, decoded by chromium (JavaScript on, nothing loaded). */
  async function largestPixelDifference(a: Buffer, b: Buffer): Promise<number> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const largest = await page.evaluate(
      async ({ x, y }) => {
        const g = globalThis as any;
        const pixels = async (base64: string) => {
          const bitmap = await g.createImageBitmap(await (await g.fetch(`data:image/png;base64,${base64}`)).blob());
          const canvas = g.document.createElement("canvas");
          Object.assign(canvas, { width: bitmap.width, height: bitmap.height });
          const context2d = canvas.getContext("2d");
          context2d.drawImage(bitmap, 0, 0);
          return context2d.getImageData(0, 0, bitmap.width, bitmap.height).data as Uint8ClampedArray;
        };
        const [p, q] = [await pixels(x), await pixels(y)];
        if (p.length !== q.length) return 255;
        return p.reduce((max, value, i) => Math.max(max, Math.abs(value - (q[i] ?? 0))), 0);
      },
      { x: a.toString("base64"), y: b.toString("base64") },
    );
    await context.close();
    return largest;
  }

  it("fits a phone: nothing wider than 360 or 400 px for the bundled, kitchen-sink and long-words cards (screenshots in the temp dir)", async ({
    annotate,
  }) => {
    const shots = mkdtempSync(join(tmpdir(), "card-page-phone-"));
    for (const width of [360, 400]) {
      const context = await phone(width);
      const page = await context.newPage();
      for (const host of ["127.0.0.1", "kitchen.localhost", "long.localhost"]) {
        expect((await page.goto(at(host)))?.status()).toBe(200);
        const overflow = await horizontalOverflow(page);
        expect(overflow.innerWidth).toBe(width);
        expect(overflow.outside, `${host} at ${width} px`).toEqual([]);
        expect(overflow.scrollWidth, `${host} at ${width} px`).toBeLessThanOrEqual(overflow.clientWidth);
        await page.screenshot({ path: join(shots, `${host}-${width}.png`), fullPage: true });
      }
      await context.close();
    }
    await annotate(shots, "phone screenshots");
  });

  it.for(["light", "dark"] as const)(
    "shows the agent's initials, never a broken-image frame, when the icon cannot be loaded (%s)",
    async (colorScheme, { annotate }) => {
      const badge = async (host: string, icon: "unreachable" | "red") => {
        const context = await phone(360, { icon, colorScheme });
        const page = await context.newPage();
        await page.goto(at(host));
        const element = page.locator("header .icon");
        const text = await element.textContent({ timeout: 5_000 });
        const shot = await element.screenshot({ timeout: 5_000 });
        await context.close();
        return { text, shot };
      };
      const none = await badge("noicon.localhost", "unreachable");
      const unreachable = await badge("127.0.0.1", "unreachable");
      const loaded = await badge("127.0.0.1", "red");
      // Saved before the checks, to look at when one fails.
      const shots = mkdtempSync(join(tmpdir(), `card-page-icon-${colorScheme}-`));
      for (const [name, { shot }] of Object.entries({ none, unreachable, loaded })) writeFileSync(join(shots, `${name}.png`), shot);
      expect(none.text).toBe("AT");
      // The badge of a card without an icon: no frame, no broken-image glyph, not a trace of them at the
      // rounded corners. Chromium 156 gives 1 of 255 (text antialiasing); with the frame painted under the
      // initials (width and height set on the img) about 22 in light mode and 54 in dark; without initials, 244.
      expect(await largestPixelDifference(unreachable.shot, none.shot), shots).toBeLessThanOrEqual(8);
      // The comparison does see an icon that loads.
      expect(await largestPixelDifference(loaded.shot, none.shot), shots).toBeGreaterThan(128);
      await annotate(shots, "icon badges");
    },
  );

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
