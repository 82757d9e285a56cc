// check.mjs — drive sift's MCP tools with the real MCP TypeScript SDK client
// (@modelcontextprotocol/sdk 1.32.2), over stdio (`sift mcp`) or streamable HTTP (/mcp).
// The SDK itself validates every tool's structuredContent against the output schema
// the tool declared in tools/list, and throws when it does not match.
//
//   TRANSPORT  stdio or http
//   SIFT_BIN   the sift binary (stdio)
//   SIFT_URL   sift's base URL, loopback only
//   SIFT_KEY   a caller's bearer key
//   PAGE_URLS  comma-separated loopback HTML pages sift may fetch; at least 3
//   JSON_URL   a loopback JSON document with items[].name
//   PDF_URL    a loopback PDF of several pages
//   QUERY      a search query answered by a loopback SearXNG
//
// Prints PASS/FAIL per check and a closing "N passed, N failed" line; exit 0 when all pass.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const env = process.env;
const base = (env.SIFT_URL || "").replace(/\/$/, "");
const pages = (env.PAGE_URLS || "").split(",").filter(Boolean);
const loopback = (u) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(u).hostname);
if (!base || pages.length < 3 || ![base, env.JSON_URL, env.PDF_URL, ...pages].every((u) => u && loopback(u))) {
  console.error("need SIFT_URL, JSON_URL, PDF_URL and at least 3 PAGE_URLS, all on loopback");
  process.exit(2);
}

let passed = 0, failed = 0;
function check(name, ok, detail) {
  ok ? passed++ : failed++;
  console.log(`${ok ? "PASS" : "FAIL"}  ${name}${ok ? "" : "  " + JSON.stringify(detail)?.slice(0, 2000)}`);
}
const text = (r) => (r?.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");
const opts = { timeout: 120000 };

const transport = env.TRANSPORT === "stdio"
  ? new StdioClientTransport({ command: env.SIFT_BIN, args: ["mcp"], env: { ...env, SIFT_URL: base, SIFT_KEY: env.SIFT_KEY } })
  : new StreamableHTTPClientTransport(new URL(base + "/mcp"), { requestInit: { headers: { Authorization: `Bearer ${env.SIFT_KEY}` } } });
const client = new Client({ name: "sift-mcp-check", version: "0" });

async function call(name, args, extra) {
  try {
    return await client.callTool({ name, arguments: args }, undefined, { ...opts, ...extra });
  } catch (e) {
    check(`${name}: no protocol error (structuredContent valid)`, false, e?.message);
    return null;
  }
}

try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check("tools/list: the six tools", JSON.stringify(names) === JSON.stringify(["batch_cancel", "batch_result", "batch_status", "batch_submit", "fetch", "search"]), names);
  check("tools/list: every tool has an output schema", tools.every((t) => t.outputSchema?.type === "object"), tools.map((t) => t.name));
  const fetchTool = tools.find((t) => t.name === "fetch");
  check("fetch: mode enum with default clean", fetchTool?.inputSchema?.properties?.mode?.default === "clean", fetchTool?.inputSchema?.properties?.mode);

  let r = await call("fetch", { url: pages[0] });
  check("fetch HTML: markdown content", !r?.isError && /# Page/.test(r?.structuredContent?.content || ""), r);
  check("fetch HTML: fenced untrusted text", /<<<UNTRUSTED [0-9a-f]+\n[\s\S]*UNTRUSTED [0-9a-f]+>>>/.test(text(r)), text(r));

  r = await call("fetch", { url: env.JSON_URL, jq: ".items[] | .name" });
  check("fetch JSON with jq", !r?.isError && /alpha/.test(r?.structuredContent?.content || "") && !/noise/.test(r?.structuredContent?.content || ""), r);

  r = await call("fetch", { url: env.PDF_URL, pages: "1" });
  check("fetch PDF page 1", !r?.isError && (r?.structuredContent?.sizes?.returned_tokens || 0) > 0, r?.structuredContent?.sizes || r);

  check("fetch: takes the extractor's options, as /v1/fetch does", fetchTool?.inputSchema?.properties?.options?.type === "object", fetchTool?.inputSchema?.properties?.options);
  const whole = r?.structuredContent?.sizes?.returned_tokens || 0;
  r = await call("fetch", { url: env.PDF_URL, pages: "1-3", options: { max_pages: 1 } });
  const first = r?.structuredContent?.sizes?.returned_tokens || 0;
  r = await call("fetch", { url: env.PDF_URL, pages: "1-3" });
  const three = r?.structuredContent?.sizes?.returned_tokens || 0;
  check("fetch PDF with options.max_pages 1: fewer tokens than three pages", first > 0 && first < three, { first, three, whole });
  r = await call("fetch", { url: pages[0], options: { no_such_option: 1 } });
  check("fetch with an option the extractor does not declare: bad_option tool error", r?.isError === true && /^bad_option: /.test(text(r)), r);

  r = await call("fetch", { url: "http://169.254.169.254/latest/meta-data/" });
  check("fetch of a metadata address: blocked tool error", r?.isError === true && /^blocked: /.test(text(r)), r);

  if (env.QUERY) {
    r = await call("search", { query: env.QUERY, k: 3 });
    const n = r?.structuredContent?.results?.length || 0;
    check("search: 1 to 3 results", !r?.isError && n > 0 && n <= 3, r);
  }

  r = await call("batch_submit", { targets: pages.slice(0, 3).map((url) => ({ url })) });
  const job = r?.structuredContent?.job_id;
  check("batch_submit: a job of three", !r?.isError && !!job && r?.structuredContent?.targets === 3, r);
  const progress = [];
  r = await call("batch_status", { job_id: job, wait: 30, results: true }, { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true });
  check("batch_status with wait: done with results", r?.structuredContent?.status === "done" && r.structuredContent.targets.every((t) => t.result?.content), r?.structuredContent || r);
  check("batch_status: progress within the total", progress.every((p) => p.total === 3 && p.progress <= 3), progress);
  r = await call("batch_result", { job_id: job, idx: 2 });
  check("batch_result: one target's result", !r?.isError && /# Page/.test(r?.structuredContent?.result?.content || ""), r);
  r = await call("batch_cancel", { job_id: job });
  check("batch_cancel of a finished job: conflict tool error", r?.isError === true && /^conflict: /.test(text(r)), r);
} catch (e) {
  check("no error", false, e?.stack || String(e));
} finally {
  await client.close().catch(() => {});
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
