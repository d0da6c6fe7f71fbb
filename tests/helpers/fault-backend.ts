// The spa sandbox behind the fault-injecting proxy, as a back end of its own for the browser tests
// of lost answers: `tsx tests/helpers/fault-backend.ts`, with FAULT_PORT, DATA_DIR, SANDBOX_API_KEY
// and APP_STORE (the app's SQLite store, seeded with the chain's prepaid clinics and promo codes).
import express from "express";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createSpaSandbox } from "../../server/spa-sandbox/index";
import { seedEmbeddedStores } from "../../server/spa-sandbox/seed-store";
import { createSqliteStores } from "../../server/store/sqlite-store.server";
import { startFaultProxy } from "./fault-proxy";

const dataDir = process.env.DATA_DIR ?? ".e2e-data-fault-backend";
fs.mkdirSync(dataDir, { recursive: true });
const stores = createSqliteStores(process.env.APP_STORE ?? path.join(dataDir, "app-store.sqlite"));
await seedEmbeddedStores(stores);
await stores.close();

const sandbox = createSpaSandbox({
  file: path.join(dataDir, "spa-sandbox.sqlite"),
  apiKeys: [process.env.SANDBOX_API_KEY ?? "fault-backend-key"],
});
const app = express();
app.use("/spa-sandbox", sandbox.router);
const inner = app.listen(0, "127.0.0.1");
await new Promise((resolve) => inner.once("listening", resolve));
const { port } = inner.address() as AddressInfo;
const proxy = await startFaultProxy(`http://127.0.0.1:${port}/spa-sandbox`, {
  port: Number(process.env.FAULT_PORT ?? 4180),
});
process.stdout.write(`fault back end on ${proxy.baseUrl}\n`);

const stop = async () => {
  await proxy.stop();
  inner.close();
  sandbox.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
