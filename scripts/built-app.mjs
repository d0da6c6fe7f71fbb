// The built app started as `npm run serve` starts it, on a fresh data directory (the embedded
// sandbox seeds itself), for the scripts that look at the running product (screenshots, Lighthouse).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Starts `node server.js` on `port`; `ready()` resolves once /healthz says the services are up. */
export function startBuiltApp(port, name) {
  const base = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `clinic-${name}-`));
  const server = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  return {
    base,
    server,
    dataDir,
    async ready() {
      for (let i = 0; i < 120; i++) {
        try {
          const answer = await fetch(`${base}/healthz`);
          if (answer.ok && (await answer.json()).status === "ok") return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error(`the app did not start on ${base}`);
    },
  };
}
