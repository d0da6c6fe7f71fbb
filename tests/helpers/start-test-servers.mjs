// The browser tests' servers (playwright.config.ts), started together instead of one after another:
// each starts as soon as the servers it names in `after` answer, and once every one answers this
// prints a line, which Playwright waits for. Playwright starts this as its one web server and, at the
// end, stops its whole process group, servers included. TEST_SERVERS_READY is that line.
//
// TEST_SERVERS is a JSON list of { name, command, env, url | port, after? }. A port already in use
// stops the run before anything starts (a server left over from another run would otherwise be
// tested in its place), and so does a server that exits or does not answer in time.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { createInterface } from "node:readline";

const TIMEOUT_MS = 90_000;
const POLL_MS = 100;

const servers = JSON.parse(process.env.TEST_SERVERS ?? "[]");
const { TEST_SERVERS: _list, TEST_SERVERS_READY: ready, ...baseEnv } = process.env;
const children = new Set();

/** Whether this process leads its process group, as Playwright starts it: its servers are then in it too. */
function leadsGroup() {
  const stat = readFileSync("/proc/self/stat", "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === process.pid;
}

/**
 * Stops every server and this run, with status 1. A command's shell stands between this and its
 * server, so the whole group is told to stop (this process ignores the signal it sends itself).
 */
function stop(message) {
  process.stderr.write(`${message}\n`);
  for (const child of children) child.removeAllListeners("exit");
  if (leadsGroup()) {
    process.on("SIGTERM", () => {});
    process.kill(-process.pid, "SIGTERM");
  } else for (const child of children) child.kill("SIGTERM");
  process.exit(1);
}

const portOf = (server) => Number(server.port ?? new URL(server.url).port);

/** Whether something accepts connections on the loopback port (either address family). */
function portInUse(port) {
  const attempt = (host) =>
    new Promise((resolve) => {
      const socket = net.connect(port, host);
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  return Promise.all([attempt("127.0.0.1"), attempt("::1")]).then((found) => found.some(Boolean));
}

/** As Playwright's own check: the URL answers with a status from 200 to 403, or the port accepts. */
function answers(server) {
  if (server.url === undefined) return portInUse(server.port);
  const url = new URL(server.url);
  // The servers listen on 127.0.0.1; `localhost` could resolve to ::1 first.
  if (url.hostname === "localhost") url.hostname = "127.0.0.1";
  return new Promise((resolve) => {
    const request = http.get(url, (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      resolve(status >= 200 && status < 404);
    });
    request.once("error", () => resolve(false));
    request.setTimeout(5_000, () => request.destroy());
  });
}

async function start(server) {
  const child = spawn(server.command, {
    shell: true,
    env: { ...baseEnv, ...server.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.add(child);
  let ready = false;
  // Whole lines, each named for its server (a chunk can end mid-line).
  createInterface({ input: child.stderr }).on("line", (line) => process.stderr.write(`[${server.name}] ${line}\n`));
  child.once("exit", (code, signal) => {
    children.delete(child);
    stop(`${server.name} exited${ready ? "" : " before it answered"} (${signal ?? `code ${code}`}): ${server.command}`);
  });
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await answers(server))) {
    if (Date.now() > deadline) stop(`${server.name} did not answer within ${TIMEOUT_MS / 1000} s: ${server.command}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  ready = true;
}

const busy = [];
for (const server of servers) if (await portInUse(portOf(server))) busy.push(`${server.name} (port ${portOf(server)})`);
if (busy.length > 0) stop(`Already in use, so the test servers were not started: ${busy.join(", ")}.`);

const started = new Map();
function startAfter(server) {
  if (!started.has(server.name)) {
    const before = (server.after ?? []).map((name) => {
      const needed = servers.find((each) => each.name === name);
      if (!needed) stop(`${server.name} waits for ${name}, which is not in the list.`);
      return startAfter(needed);
    });
    started.set(
      server.name,
      Promise.all(before).then(() => start(server)),
    );
  }
  return started.get(server.name);
}
await Promise.all(servers.map(startAfter));
process.stdout.write(`${ready}\n`);
