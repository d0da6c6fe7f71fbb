// The spa sandbox as a back end of its own for the call-budget bench: `tsx bench/zenoti-backend.ts`
// with BACKEND_PORT, DATA_DIR, SANDBOX_API_KEY and APP_STORE (the app's SQLite store, seeded as the
// embedded default seeds it), and SANDBOX_RATE_LIMIT_PER_MINUTE for Zenoti's token bucket (0, the
// default: none). It counts the API calls it answers per key, as Zenoti meters them per
// organisation; GET /__calls tells the counts, GET /__limited the 429s it answered.
import express from "express";
import fs from "node:fs";
import path from "node:path";
import { createSpaSandbox } from "../server/spa-sandbox/index";
import { seedEmbeddedStores } from "../server/spa-sandbox/seed-store";
import { createSqliteStores } from "../server/store/sqlite-store.server";

const dataDir = process.env.DATA_DIR ?? "bench-backend-data";
fs.mkdirSync(dataDir, { recursive: true });
const stores = createSqliteStores(process.env.APP_STORE ?? path.join(dataDir, "app-store.sqlite"));
await seedEmbeddedStores(stores);
await stores.close();

const sandbox = createSpaSandbox({
  file: path.join(dataDir, "spa-sandbox.sqlite"),
  apiKeys: [process.env.SANDBOX_API_KEY ?? "bench-key"],
  rateLimitPerMinute: Number(process.env.SANDBOX_RATE_LIMIT_PER_MINUTE ?? 0),
});
const calls = new Map<string, number>();
let limited = 0;
const app = express();
app.get("/__calls", (_req, res) => {
  res.json(Object.fromEntries(calls));
});
app.get("/__limited", (_req, res) => {
  res.json({ limited });
});
// The app's SMS provider in the bench (a real back end needs one to start): takes the text, forgets it.
app.post("/__sms", (req, res) => {
  req.resume();
  req.on("end", () => res.status(202).end());
});
app.use("/spa-sandbox", (req, res, next) => {
  // An API call carries credentials; the hosted card page is the guest's browser, not a call.
  const key = req.get("authorization");
  res.on("finish", () => {
    if (res.statusCode === 429) limited += 1;
  });
  if (key) {
    const name = `${req.method} ${req.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ":id")}`;
    calls.set(name, (calls.get(name) ?? 0) + 1);
  }
  next();
});
app.use("/spa-sandbox", sandbox.router);
const server = app.listen(Number(process.env.BACKEND_PORT ?? 4303), "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
process.stdout.write("bench back end ready\n");

const stop = () => {
  server.close();
  sandbox.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
