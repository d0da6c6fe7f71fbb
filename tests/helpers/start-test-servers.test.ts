import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "./free-port";

const LAUNCHER = path.join(import.meta.dirname, "start-test-servers.mjs");
const READY = "every test server answers";

/** A one-line server for the launcher to start: answers 200 at /healthz once it listens. */
function healthServer(port: number, { needsPort }: { needsPort?: number } = {}): string {
  // With `needsPort`, it refuses to start unless that port already accepts: the order the launcher keeps.
  const source = `
    const http = require("node:http");
    const start = () => http.createServer((q, r) => r.end("ok")).listen(${port}, "127.0.0.1");
    ${
      needsPort === undefined
        ? "start();"
        : `require("node:net").connect(${needsPort}, "127.0.0.1").once("connect", start).once("error", () => process.exit(3));`
    }`;
  return `node -e '${source.replace(/\s+/g, " ")}'`;
}

let launched: ChildProcess | undefined;

/** Starts the launcher in a process group of its own, as Playwright does; resolves with its exit or READY. */
function launch(servers: unknown[]): Promise<{ ready: boolean; code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [LAUNCHER], {
    detached: true,
    env: { ...process.env, TEST_SERVERS: JSON.stringify(servers), TEST_SERVERS_READY: READY },
    stdio: ["ignore", "pipe", "pipe"],
  });
  launched = child;
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    child.stdout.on("data", (chunk) => {
      if (String(chunk).includes(READY)) resolve({ ready: true, code: null, stderr });
    });
    child.once("exit", (code) => resolve({ ready: false, code, stderr }));
  });
}

afterEach(() => {
  // The launcher leads its group: stopping the group stops the servers it started.
  if (launched?.pid && launched.exitCode === null) {
    try {
      process.kill(-launched.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  launched = undefined;
});

describe("the browser tests' server launcher", () => {
  it("starts a server after the one it names, and says so once both answer", async () => {
    const [first, second] = [await freePort(), await freePort()];
    const result = await launch([
      {
        name: "second",
        command: healthServer(second, { needsPort: first }),
        url: `http://localhost:${second}/healthz`,
        after: ["first"],
      },
      { name: "first", command: healthServer(first), url: `http://localhost:${first}/healthz` },
    ]);
    expect(result).toMatchObject({ ready: true });
  });

  it("starts nothing when a port is already in use, and names it", async () => {
    const taken = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
    try {
      const other = await freePort();
      const result = await launch([
        { name: "free", command: healthServer(other), url: `http://localhost:${other}/healthz` },
        { name: "busy", command: healthServer(port), url: `http://localhost:${port}/healthz` },
      ]);
      expect(result.ready).toBe(false);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`busy (port ${port})`);
      // Nothing was started: the free server's port is still free.
      expect(await accepts(other)).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("stops the run when a server exits before it answers", async () => {
    const port = await freePort();
    const result = await launch([{ name: "broken", command: "exit 4", url: `http://localhost:${port}/healthz` }]);
    expect(result).toMatchObject({ ready: false, code: 1 });
    expect(result.stderr).toContain("broken exited before it answered (code 4)");
  });
});

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
