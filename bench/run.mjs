// npm run bench: builds the app and a bare React Router page of the same version, serves both,
// and prints throughput, latency and the gzip size of the JavaScript each page loads, with the
// bare page's figures from the same run and the ratio. Figures only: nothing here passes or fails.
import autocannon from "autocannon";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const root = path.resolve(import.meta.dirname, "..");
const bareDir = path.join(root, "bench", "bare");
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const APP_PORT = 4301;
const BARE_PORT = 4302;
const ROUTES = ["/", "/locations", "/locations/austin-downtown"];

/** The booking steps need a clinic id, a service id and (for the time step) a session with a draft. */
async function bookingRoutes(origin) {
  const clinic = await (await fetch(`${origin}/locations/austin-downtown`)).text();
  const centerId = /\/appointment\/service\?id=([0-9a-f-]{36})/.exec(clinic)?.[1];
  const servicePath = `/appointment/service?id=${centerId}`;
  const menu = await (await fetch(origin + servicePath)).text();
  const facialId = /choose=([0-9a-f-]{36})[^>]*>Select<span[^>]*>\s*(?:<!-- -->)?\s*Signature Laser Facial - New Client</.exec(menu)?.[1];
  const deepLink = await fetch(`${origin}${servicePath}&service=${facialId}`, { redirect: "manual" });
  const cookie = (deepLink.headers.get("set-cookie") ?? "").split(";")[0];
  if (!centerId || !facialId || !cookie) throw new Error("could not set up a booking draft for the bench");
  return [
    { route: servicePath, label: "/appointment/service?id=…", headers: {} },
    { route: "/appointment/time", label: "/appointment/time", headers: { cookie } },
  ];
}

function run(command, args, cwd) {
  execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"] });
}

function start(command, args, env, cwd = root) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  return child;
}

async function waitFor(url) {
  for (let i = 0; i < 200; i++) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function load(url, headers = {}) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** The gzip size of every script a page loads: module preloads and module scripts. */
async function jsGzipBytes(origin, pathname, headers = {}) {
  const html = await (await fetch(origin + pathname, { headers })).text();
  const srcs = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g), ...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]));
  let total = 0;
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src, origin))).arrayBuffer());
    total += gzipSync(body, { level: 9 }).length;
  }
  return total;
}

function rssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return NaN;
  }
}

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

console.log("Building the app and the bare baseline...");
run("npm", ["run", "-s", "build"], root);
run(path.join(root, "node_modules", ".bin", "react-router"), ["build"], bareDir);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-data-"));
// Started as `npm start` does after its build (server.js sets production mode itself); node is run
// directly so that its memory can be read.
const app = start("node", ["server.js"], { PORT: String(APP_PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" });
const bare = start(path.join(root, "node_modules", ".bin", "react-router-serve"), [path.join(bareDir, "build", "server", "index.js")], {
  PORT: String(BARE_PORT),
  HOST: "127.0.0.1",
  NODE_ENV: "production",
}, bareDir);

try {
  const appOrigin = `http://127.0.0.1:${APP_PORT}`;
  const bareOrigin = `http://127.0.0.1:${BARE_PORT}`;
  await waitFor(`${appOrigin}/healthz`);
  await waitFor(`${bareOrigin}/`);
  // Warm both up (the app fills its catalog cache from the sandbox).
  for (const route of ROUTES) await fetch(appOrigin + route);
  await fetch(bareOrigin + "/");
  const idle = { app: rssMb(app.pid), bare: rssMb(bare.pid) };

  console.log(`\nEach figure: ${DURATION}s of load at ${CONNECTIONS} connections, on ${os.cpus().length} cores.\n`);
  const bareLoad = await load(`${bareOrigin}/`);
  const bareJs = await jsGzipBytes(bareOrigin, "/");
  const rows = [];
  const targets = [...ROUTES.map((route) => ({ route, label: route, headers: {} })), ...(await bookingRoutes(appOrigin))];
  for (const { route, label, headers } of targets) {
    const figures = await load(appOrigin + route, headers);
    const js = await jsGzipBytes(appOrigin, route, headers);
    rows.push({
      route: label,
      "req/s": fmt(figures.rps),
      "bare req/s": fmt(bareLoad.rps),
      "req/s ratio": fmt(figures.rps / bareLoad.rps, 2),
      "p50 ms": fmt(figures.p50, 1),
      "bare p50": fmt(bareLoad.p50, 1),
      "p99 ms": fmt(figures.p99, 1),
      "bare p99": fmt(bareLoad.p99, 1),
      "p99 ratio": fmt(figures.p99 / Math.max(bareLoad.p99, 0.1), 2),
      "JS gzip KB": fmt(js / 1024, 1),
      "bare JS KB": fmt(bareJs / 1024, 1),
      "JS ratio": fmt(js / bareJs, 2),
    });
  }
  console.table(rows);
  const loaded = { app: rssMb(app.pid), bare: rssMb(bare.pid) };
  console.log(`\nResident memory, warmed up: app ${idle.app} MB, bare ${idle.bare} MB (ratio ${fmt(idle.app / idle.bare, 2)}).`);
  console.log(`Resident memory after the load: app ${loaded.app} MB, bare ${loaded.bare} MB (ratio ${fmt(loaded.app / loaded.bare, 2)}).`);
} finally {
  app.kill("SIGTERM");
  bare.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
