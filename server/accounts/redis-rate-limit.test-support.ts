// A real redis-server for the Redis adapter's tests, one per test file on a free port of this
// machine, with nothing kept on disk. It can be killed and started again on the same port, to
// test an outage and the reconnection after it.
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../../tests/helpers/free-port";
import type { RateLimiter } from "./rate-limit.server";
import { createRedisRateLimiter } from "./redis-rate-limit.server";

export type LocalRedis = {
  url: string;
  /** Kills the server at once, as a crash or a lost network would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Starts it again only if it was killed. */
  ensureRunning(): Promise<void>;
  stop(): Promise<void>;
};

const START_TIMEOUT_MS = 10_000;

function launch(port: number): Promise<ChildProcess | string> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  let settled = false;
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle(`it did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    function settle(result: ChildProcess | string) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout.removeAllListeners("data");
      child.stdout.resume();
      child.stderr.resume();
      if (typeof result === "string" && child.exitCode === null) child.kill("SIGKILL");
      resolve(result);
    }
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) settle(child);
    });
    child.once("error", (error) => settle(`redis-server could not be run (${error.message})`));
    child.once("exit", (code) =>
      settle(`redis-server exited with ${code}: ${output.trim().split("\n").slice(-2).join(" ")}`),
    );
  });
}

async function end(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

/** A running redis-server, or why there is none. */
export async function startLocalRedis(): Promise<LocalRedis | { unavailable: string }> {
  const port = await freePort();
  const first = await launch(port);
  if (typeof first === "string") return { unavailable: first };
  let child: ChildProcess | null = first;
  async function restart() {
    await end(child, "SIGKILL");
    const next = await launch(port);
    if (typeof next === "string") throw new Error(`redis-server did not start again: ${next}`);
    child = next;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      await end(child, "SIGKILL");
      child = null;
    },
    restart,
    async ensureRunning() {
      if (!child) await restart();
    },
    async stop() {
      await end(child, "SIGTERM");
      child = null;
    },
  };
}

/**
 * The Redis adapter pointed at a port where nothing listens: the counters as an outage leaves
 * them, for testing which limits refuse and which allow. Close it after use (it keeps retrying).
 */
export async function unreachableRedisRateLimiter(): Promise<RateLimiter> {
  return createRedisRateLimiter({ url: `redis://127.0.0.1:${await freePort()}`, keyPrefix: "unreachable" });
}
