// check.mjs — drive the real Firecrawl JS SDK 1.x (@mendable/firecrawl-js 1.29.3, which
// speaks Firecrawl v1) against a running sift: scrapeUrl, mapUrl and search, and their
// refusals as the SDK shows them; sift's own /v1/search beside the v1 search.
//
//   SIFT_URL   sift's base URL, loopback only (e.g. http://127.0.0.1:8890)
//   SIFT_KEY   a caller's bearer key
//   PAGE_URLS  comma-separated loopback fixture pages sift may fetch; at least 2
//   QUERY      a search query the configured search backend answers
//
// Prints PASS/FAIL per check and a closing "N passed, N failed" line; exit 0 when all pass.
import FirecrawlApp from "@mendable/firecrawl-js";

const env = process.env;
const base = (env.SIFT_URL || "").replace(/\/$/, "");
const pages = (env.PAGE_URLS || "").split(",").filter(Boolean);
const loopback = (u) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(u).hostname);
if (!base || !loopback(base) || pages.length < 2 || !pages.every(loopback) || !env.QUERY) {
  console.error("need SIFT_URL, QUERY and at least 2 PAGE_URLS, all on loopback");
  process.exit(2);
}

let passed = 0, failed = 0;
function check(name, ok, detail) {
  ok ? passed++ : failed++;
  console.log(`${ok ? "PASS" : "FAIL"}  ${name}${ok ? "" : "  " + JSON.stringify(detail)}`);
}
const why = (e) => ({ message: e?.message, status: e?.statusCode });
const app = new FirecrawlApp({ apiKey: env.SIFT_KEY || "", apiUrl: base });

try {
  const doc = await app.scrapeUrl(pages[0], { formats: ["markdown", "links"] });
  check("scrapeUrl: success and markdown", doc?.success === true && doc.markdown?.includes("Fixture text"), doc);
  check("scrapeUrl: metadata.title", doc?.metadata?.title === "Page a", doc?.metadata);
  check("scrapeUrl: links", Array.isArray(doc?.links) && doc.links.some((l) => l.endsWith("/a.html")), doc?.links);
} catch (e) { check("scrapeUrl: no error", false, why(e)); }

// A refusal the SDK shows with sift's reason, not "the server is unreachable".
try {
  await app.scrapeUrl("http://10.0.0.1/", { formats: ["markdown"] });
  check("scrapeUrl of a private address: refused", false, "no error thrown");
} catch (e) {
  check("scrapeUrl of a private address: the reason shown", e.message.includes("blocked") && !e.message.includes("unreachable"), why(e));
}
// A refusal whose status the SDK would not show (404: lockdown on a page never cached)
// keeps its reason, and its real status in the text.
try {
  await app.scrapeUrl(pages[1], { lockdown: true });
  check("scrapeUrl lockdown of an uncached page: refused", false, "no error thrown");
} catch (e) {
  check("scrapeUrl lockdown of an uncached page: the reason shown", e.message.includes("not_found") &&
    e.message.includes("HTTP 404") && !e.message.includes("unreachable") && !e.message.includes("Unexpected error"), why(e));
}

try {
  const map = await app.mapUrl(pages[0]);
  check("mapUrl: success and links as URLs", map?.success === true && Array.isArray(map.links) &&
    map.links.every((l) => typeof l === "string") && map.links.some((l) => l.endsWith("/a.html")), map);
} catch (e) { check("mapUrl: no error", false, why(e)); }
try {
  const map = await app.mapUrl("http://10.0.0.1/");
  check("mapUrl of a private address: success false with the reason", map?.success === false && map.error?.includes("blocked"), map);
} catch (e) { check("mapUrl of a private address: no crash", false, why(e)); }

try {
  const res = await app.search(env.QUERY, { limit: 2 });
  check("search: v1's data list", res?.success === true && Array.isArray(res.data) && res.data.length === 2 &&
    typeof res.data[0].url === "string" && typeof res.data[0].title === "string", res);
  check("search: the SDK's defaults (lang, country, timeout, no formats) draw no warning",
    !/not applied|unknown fields/.test(res?.warning || ""), res?.warning);
  check("search: no formats, no scrape", res?.data?.every((r) => r.markdown === undefined), res?.data);
} catch (e) { check("search: no error", false, why(e)); }

// sift's own /v1/search on the same path, told apart by its fields.
try {
  const resp = await fetch(base + "/v1/search", { method: "POST", headers: { "Content-Type": "application/json",
    Authorization: "Bearer " + env.SIFT_KEY }, body: JSON.stringify({ query: env.QUERY, k: 2 }) });
  const body = await resp.json();
  check("sift's /v1/search: its own shape", resp.status === 200 && Array.isArray(body.results) && body.results.length === 2, body);
} catch (e) { check("sift's /v1/search: no error", false, why(e)); }

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
