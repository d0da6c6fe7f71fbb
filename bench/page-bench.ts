// What the page benches share (the call budget, bench/calls.ts; the burst, bench/burst.ts): the
// sandbox run as a separate back end (bench/zenoti-backend.ts, which counts the calls it answers),
// the built app against it as against Zenoti, and a browser to book through the pages.
import { chromium, type Browser } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EMBEDDED_AVAILABILITY_GUEST_ID } from "../server/embedded-defaults";
import { chromiumLaunchOptions } from "../scripts/chromium.mjs";

const root = path.resolve(import.meta.dirname, "..");

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

async function waitFor(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

export type PageBench = { appOrigin: string; backendOrigin: string; browser: Browser; stop(): Promise<void> };

/**
 * Starts the back end, then the app using it, and a browser. `rateLimitPerMinute`: the back end's
 * token bucket (Zenoti's 60), none by default.
 */
export async function startPageBench(options: {
  name: string;
  appPort: number;
  backendPort: number;
  rateLimitPerMinute?: number;
}): Promise<PageBench> {
  const apiKey = `bench-${options.name}-key`;
  const backendOrigin = `http://127.0.0.1:${options.backendPort}`;
  const appOrigin = `http://127.0.0.1:${options.appPort}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${options.name}-`));
  fs.mkdirSync(path.join(dataDir, "app"), { recursive: true });
  const backend = start(path.join(root, "node_modules", ".bin", "tsx"), ["bench/zenoti-backend.ts"], {
    BACKEND_PORT: String(options.backendPort),
    DATA_DIR: path.join(dataDir, "backend"),
    APP_STORE: path.join(dataDir, "app", "store.sqlite"),
    SANDBOX_API_KEY: apiKey,
    SANDBOX_RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute ?? 0),
  });
  let app: ChildProcess | null = null;
  const browser = await chromium.launch(chromiumLaunchOptions("/usr/bin/chromium"));
  const stop = async () => {
    await browser.close();
    app?.kill("SIGTERM");
    backend.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${backendOrigin}/__calls`);
    app = start("node", ["server.js"], {
      PORT: String(options.appPort),
      HOST: "127.0.0.1",
      DATA_DIR: path.join(dataDir, "app"),
      LOG_LEVEL: "error",
      SPA_BASE_URL: `${backendOrigin}/spa-sandbox`,
      SPA_API_KEY: apiKey,
      SESSION_SECRETS: `bench-${options.name}-secret-0123456789abcdef-0123456789`,
      // The sandbox back end seeds the guest open times are read through (decision 018).
      SPA_AVAILABILITY_GUEST_ID: EMBEDDED_AVAILABILITY_GUEST_ID,
      // A real back end needs a way to send one-time codes: the back end takes texts and forgets them.
      SMS_WEBHOOK_URL: `${backendOrigin}/__sms`,
    });
    await waitFor(`${appOrigin}/healthz`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { appOrigin, backendOrigin, browser, stop };
}
