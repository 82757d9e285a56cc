// check.mjs — run the real Firecrawl MCP server (firecrawl-mcp 3.26.0) over stdio against
// a running sift, as an agent's MCP client would, and check what its tools answer.
//
//   SIFT_URL   sift's base URL, loopback only; the MCP server gets it as FIRECRAWL_API_URL
//   SIFT_KEY   a caller's bearer key (FIRECRAWL_API_KEY)
//   PAGE_URLS  comma-separated loopback pages sift may fetch; at least 4, of one host
//   QUERY      a search query the configured search backend answers (optional; skips search)
//
// Prints PASS/FAIL per check, INFO lines for the record, and a closing "N passed, N failed" line; exit 0 when all pass.
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const env = process.env;
const base = (env.SIFT_URL || "").replace(/\/$/, "");
const pages = (env.PAGE_URLS || "").split(",").filter(Boolean);
const loopback = (u) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(u).hostname);
if (!base || !loopback(base) || pages.length < 4 || !pages.every(loopback)) {
  console.error("need SIFT_URL and at least 4 PAGE_URLS, all on loopback");
  process.exit(2);
}

let passed = 0, failed = 0;
function check(name, ok, detail) {
  ok ? passed++ : failed++;
  console.log(`${ok ? "PASS" : "FAIL"}  ${name}${ok ? "" : "  " + JSON.stringify(detail)?.slice(0, 600)}`);
}
const text = (res) => (res?.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");

const entry = createRequire(import.meta.url).resolve("firecrawl-mcp/dist/index.js");
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [entry],
  env: { PATH: env.PATH || "", HOME: env.HOME || "", FIRECRAWL_API_URL: base, FIRECRAWL_API_KEY: env.SIFT_KEY || "" },
  stderr: "pipe",
});
let stderr = "";
transport.stderr?.on("data", (d) => { stderr += d; });
const client = new Client({ name: "sift-check", version: "1.0.0" });
try {
  await client.connect(transport);
} catch (e) {
  console.log(`FAIL  connect  ${e?.message}\n${stderr}`);
  process.exit(1);
}

const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
check("tools: firecrawl_scrape and firecrawl_map listed", names.includes("firecrawl_scrape") && names.includes("firecrawl_map"), names);

try {
  const res = await client.callTool({ name: "firecrawl_scrape", arguments: { url: pages[0], formats: ["markdown"] } });
  const t = text(res);
  check("scrape: the page's markdown", !res.isError && t.includes("Fixture text for the Firecrawl SDK check"), t);
} catch (e) { check("scrape: no error", false, e?.message); }

try {
  // An agent's parallel tool calls: four pages of one host at once.
  const all = await Promise.all(pages.slice(0, 4).map((url) =>
    client.callTool({ name: "firecrawl_scrape", arguments: { url, formats: ["markdown"] } })));
  const bad = all.map((r, i) => ({ i, err: r.isError, t: text(r).slice(0, 200) }))
    .filter((r) => r.err || !r.t.includes("Fixture text"));
  check("scrape: four parallel calls to one host all answered", bad.length === 0, bad);
} catch (e) { check("scrape in parallel: no error", false, e?.message); }

try {
  const res = await client.callTool({ name: "firecrawl_scrape", arguments: { url: pages[1], formats: ["links"] } });
  const t = text(res);
  check("scrape: links", !res.isError && t.includes("/a.html"), t);
} catch (e) { check("scrape links: no error", false, e?.message); }

try {
  // html is the clean content: the article as HTML, its links absolute,
  // not the page's head.
  const res = await client.callTool({ name: "firecrawl_scrape", arguments: { url: pages[1], formats: ["html"] } });
  const t = text(res);
  const o = new URL(pages[1]).origin;
  const linked = t.includes(`href="${o}/a.html"`) || t.includes(`href=\\"${o}/a.html\\"`);
  check("scrape: html is the clean content, links absolute", !res.isError && t.includes("<p>Fixture text") && linked &&
    !t.includes("<title>"), t);
} catch (e) { check("scrape html: no error", false, e?.message); }

try {
  const res = await client.callTool({ name: "firecrawl_scrape", arguments: { url: pages[1], includeTags: ["div["] } });
  const t = text(res);
  check("scrape: a selector that does not parse is refused, naming it", res.isError === true && t.includes("div["), t);
} catch (e) { check("scrape bad selector: refused naming it", /div\[/.test(e?.message || ""), e?.message); }

try {
  const res = await client.callTool({ name: "firecrawl_map", arguments: { url: pages[1] } });
  const t = text(res);
  check("map: the page's links", !res.isError && t.includes("/a.html"), t);
} catch (e) { check("map: no error", false, e?.message); }

// firecrawl-mcp posts a crawl through its raw HTTP client, which would
// report a non-2xx answer by its status alone: sift's 200 envelope hands
// the agent the text saying what to use instead.
try {
  const res = await client.callTool({ name: "firecrawl_crawl", arguments: { url: pages[0], limit: 2 } });
  const t = text(res);
  check("crawl: answered unsupported, naming batch scrape and the scrape tool",
    t.includes("unsupported: /v2/crawl") && t.includes("batch scrape") && t.includes("firecrawl_scrape per URL") && !t.includes("status code"), t);
} catch (e) { check("crawl: answered unsupported", false, e?.message); }

// The query format, the scrape tool's way to ask a page something: the
// page's own words in directQuote mode (no LLM needed).
try {
  const res = await client.callTool({ name: "firecrawl_scrape", arguments: { url: pages[0], formats: ["query"],
    queryOptions: { prompt: "fixture text", mode: "directQuote" } } });
  const t = text(res);
  check("scrape query directQuote: an answer from the page", !res.isError && t.includes('"answer"') && t.includes("Fixture text"), t);
} catch (e) { check("scrape query: no error", false, e?.message); }

// The search tool's own defaults (sources web and alexandria, domainTools,
// toolDetail): web results, and one warning naming the rest.
if (env.QUERY) {
  try {
    const res = await client.callTool({ name: "firecrawl_search", arguments: { query: env.QUERY, limit: 2 } });
    const t = text(res);
    const warnings = (t.match(/not applied: /g) || []).length;
    check("search: web results with the tool's defaults", !res.isError && t.includes('"web"') && t.includes("nginx"), t);
    check("search: the defaults named in one warning", warnings === 1 && t.includes("alexandria") && t.includes("sift searches the web only"), t);
  } catch (e) { check("search: no error", false, e?.message); }
}

// Tools that copy only some fields of the answer (a crawl's status, a
// paper search) pass the envelope's agent_hints on to the agent.
for (const [tool, args] of [
  ["firecrawl_check_crawl_status", { id: "0b3e0c4e-6a39-4e0e-9d2f-3c2b1f0e9a11" }],
  ["firecrawl_research_search_papers", { query: "web extraction" }],
]) {
  try {
    const res = await client.callTool({ name: tool, arguments: args });
    const t = text(res);
    check(`${tool}: the agent reads unsupported`, t.includes("unsupported: "), t);
  } catch (e) { check(`${tool}: the agent reads unsupported`, /unsupported: /.test(e?.message || ""), e?.message); }
}

await client.close();
console.log(`${passed} passed, ${failed} failed`);
if (failed > 0) console.log(stderr);
process.exit(failed ? 1 : 0);
