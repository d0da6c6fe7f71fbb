import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { APP_PORT } from "../../playwright.config";
import { expect, ONCE, test } from "./fixtures";

/**
 * The production process on its own (started as `npm run serve` does): what it refuses to start
 * with, and what it does on SIGTERM. Plain HTTP, so it runs once (`ONCE`), not per browser project.
 */

const PORT = APP_PORT + 20;

function startServer(
  env: Record<string, string>,
  dataDir: string,
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  fs.rmSync(dataDir, { recursive: true, force: true });
  let output = "";
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

test(
  "a production start with a real back end and no way to send one-time codes is refused, naming the settings",
  ONCE,
  async () => {
    const { exited, output } = startServer(
      {
        SPA_BASE_URL: "http://127.0.0.1:9",
        SPA_API_KEY: "key",
        SPA_AVAILABILITY_GUEST_ID: "0b6c2f7e-1d2a-4c3b-9e8f-7a6b5c4d3e2f",
        SESSION_SECRETS: "x".repeat(40),
      },
      ".e2e-data-refused",
    );
    expect(await exited).toBe(1);
    expect(output()).toContain("SMTP_URL or SMS_WEBHOOK_URL: required in production with a real spa back end");
  },
);

test("a start on a port another process holds is refused, saying which and what to do", ONCE, async () => {
  // A port of its own: the tests of this file run side by side, and the SIGTERM one listens on PORT.
  const taken = PORT + 1;
  const holder = http.createServer();
  await new Promise<void>((resolve) => holder.listen(taken, "127.0.0.1", resolve));
  try {
    const { exited, output } = startServer({ PORT: String(taken) }, ".e2e-data-port-taken");
    expect(await exited).toBe(1);
    expect(output()).toContain(
      `Cannot listen on 127.0.0.1:${taken} (EADDRINUSE): another process is using it; stop it or set PORT to a free port.`,
    );
    expect(output()).not.toContain("TypeError");
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

test("on SIGTERM the process finishes, sends the analytics it holds, and exits cleanly", ONCE, async () => {
  // A collector that keeps every batch it is sent.
  const received: { name: string; requestId?: string }[] = [];
  const collector = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push(...(JSON.parse(body) as { batch: { name: string; requestId?: string }[] }).batch);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/batch`;
  const { child, exited, output } = startServer({ ANALYTICS_URL: collectorUrl }, ".e2e-data-shutdown");
  try {
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${PORT}/readyz`).catch(() => null))?.status ?? 0, {
        timeout: 30_000,
      })
      .toBe(200);
    const page = await fetch(`http://127.0.0.1:${PORT}/terms`);
    expect(page.status).toBe(200);
    const requestId = page.headers.get("x-request-id");
    // Straight away, before a batch would have gone out on its own.
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(received).toContainEqual(expect.objectContaining({ name: "page_viewed", requestId }));
    // The log is JSON lines, and the page's own line carries its id.
    const lines = output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ message: "request", requestId, path: "/terms", status: 200 }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ message: "shutting down", signal: "SIGTERM" }));
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    await new Promise((resolve) => collector.close(resolve));
  }
});
