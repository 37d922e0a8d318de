// The API reference page shows composed schemas in full: an allOf's members merged into one table
// with where each comes from, each oneOf/anyOf alternative with its title and its own members,
// recursive schemas linked rather than expanded, a `title` beside a `$ref` keeping the link, and a
// partial `info` (an empty license) rendered without "undefined". Checked in the HTML, one construct
// at a time, then in Chromium.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launchChromium } from "@neutral/test-support/browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "./index.mjs";

const shop = fileURLToPath(new URL("../test/documents/shop-openrpc.json", import.meta.url));
let dir: string;
let page: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "neutral-openrpc-docs-"));
  await generate({ spec: shop, targets: { docs: { out: path.join(dir, "docs") } } });
  page = await readFile(path.join(dir, "docs/index.html"), "utf8");
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The HTML of the article with this id. */
const article = (id: string) => {
  const start = page.indexOf(`id="${id}"`);
  if (start < 0) throw new Error(`no #${id}`);
  return page.slice(start, page.indexOf("</article>", start));
};
/** The text of an HTML fragment, tags dropped and whitespace folded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ")
    .replace(/ ([,.])/g, "$1")
    .trim();
/** Each row of the first table in `html` as the text of its cells. */
const rows = (html: string) =>
  [...html.slice(html.indexOf("<tbody>"), html.indexOf("</tbody>")).matchAll(/<tr>(.*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((cell) => text(cell[1]!)));

describe("allOf: the members merged into one table", () => {
  it("lists the referenced component's members and the inline member's, saying where each comes from", () => {
    const order = article("schema-Order");
    expect(text(order)).toContain("Type: NewOrder & { id, status, total }");
    expect(rows(order).map(([field, , required, , , from]) => [field, required, from])).toEqual([
      ["lines", "yes", "NewOrder"],
      ["payment", "yes", "NewOrder"],
      ["note", "no", "NewOrder"],
      ["id", "yes", "member 2"],
      ["status", "yes", "member 2"],
      ["total", "no", "member 2"],
    ]);
    expect(order).toContain('<td><a href="#schema-NewOrder"><code>NewOrder</code></a></td>');
  });
});

describe("oneOf/anyOf: each alternative with its title and its own members", () => {
  it("names alternatives by link, title or members, never a bare object", () => {
    expect(text(article("schema-Filter"))).toContain("Type: Comparison | { and } | { or } | Not");
    expect(text(article("schema-BlockId"))).toContain("Type: BlockHash | { blockNumber } | string");
    expect(page).not.toMatch(/Type: [^<]*object \| object/);
  });

  it("shows each alternative's members in a table of its own, and a tag string with its values", () => {
    const blockId = article("schema-BlockId");
    const items = [...blockId.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => item[1]!);
    expect(items).toHaveLength(3);
    const header = "field type required default constraints description";
    expect(text(items[0]!)).toBe(`BlockHash · object · no other members ${header} blockHash string yes pattern ^0x[0-9a-f]{64}$`);
    expect(text(items[1]!)).toBe(`alternative 2 · object · no other members ${header} blockNumber integer yes ≥ 0`);
    expect(text(items[2]!)).toBe('alternative 3 · string · one of "latest", "earliest", "pending"');
    expect(text(blockId)).toContain("Exactly one of");
  });

  it("keeps linked alternatives links (no list when the type line says it all), and a nested union's alternatives inside its member", () => {
    const payment = article("schema-Payment");
    expect(payment).toContain('Type: <a href="#schema-CardPayment"><code>CardPayment</code></a> | <a href="#schema-BitcoinPayment"><code>BitcoinPayment</code></a>');
    expect(payment).not.toContain("alternatives");
    const invoice = article("schema-Invoice");
    expect(text(invoice)).toContain("terms Net | Prepaid yes");
  });
});

describe("recursive schemas", () => {
  it("link back to themselves instead of expanding forever", () => {
    const filter = article("schema-Filter");
    expect(filter).toContain('array of <a href="#schema-Filter"><code>Filter</code></a>');
    expect(filter.match(/<table/g)).toHaveLength(3); // the and, or and not alternatives: one table each
    expect(page.length).toBeLessThan(200_000);
  });
});

describe("$ref with sibling keywords", () => {
  it("keeps the link to the component when a title is given beside the $ref", () => {
    expect(rows(article("method-blocks_get"))[0]).toEqual(["0", "block_id", "BlockId", "yes", "", "", ""]);
    expect(article("method-blocks_get")).toContain('<a href="#schema-BlockId"><code>BlockId</code></a>');
  });
});

describe("a partial info object", () => {
  it("renders an empty license as no license at all", () => {
    expect(page).not.toContain("undefined");
    expect(page).not.toContain("License");
  });
});

describe("in Chromium", () => {
  it("shows the merged table, every alternative and working links, with no console errors", { timeout: 120_000 }, async () => {
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const problems: string[] = [];
      tab.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
      tab.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      await tab.goto(pathToFileURL(path.join(dir, "docs/index.html")).href, { waitUntil: "load" });
      const seen = await tab.evaluate(() => {
        const visible = (element: Element) => element.getBoundingClientRect().height > 0;
        const alternatives = Array.from(document.querySelectorAll("#schema-Filter ol.alternatives > li")).filter(visible);
        const merged = document.querySelector("#schema-Order table.merged");
        const broken = Array.from(document.querySelectorAll('a[href^="#"]'))
          .map((link) => link.getAttribute("href")!.slice(1))
          .filter((id) => document.getElementById(id) === null);
        return {
          alternatives: alternatives.map((item) => (item as HTMLElement).innerText.split("\n")[0]),
          mergedRows: merged ? Array.from(merged.querySelectorAll("tbody tr")).filter(visible).length : 0,
          fromHeader: merged ? (merged.querySelector("th:nth-child(6)") as HTMLElement).innerText : "",
          broken,
        };
      });
      expect(seen.alternatives.map((line) => line?.split(" · ")[0])).toEqual(["Comparison", "alternative 2", "alternative 3", "Not"]);
      expect(seen.mergedRows).toBe(6);
      expect(seen.fromHeader.toLowerCase()).toBe("from");
      expect(seen.broken).toEqual([]);
      // A link from an alternative's member reaches the component.
      await tab.click('#schema-Filter ol.alternatives a[href="#schema-Filter"]');
      expect(await tab.evaluate(() => location.hash)).toBe("#schema-Filter");
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
