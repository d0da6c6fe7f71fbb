import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { onTestFinished } from "vitest";
import type { RecordedEvent } from "./analytics.server";

/** What the analytics tests run against: a collector on a local port, and a wait for the background sender. */

type Received = { headers: http.IncomingHttpHeaders; body: string; json: { batch: RecordedEvent[]; sentAt: string } };
export type Answer = number | "hang" | "hold";

/**
 * A collector on a local port. Each request is answered with what `answer` says: a status, "hang"
 * (never answered), or "hold" (answered 200 on `release`).
 */
export async function startCollector(answer: (index: number) => Answer = () => 200) {
  const received: Received[] = [];
  const answered = new Map<number, number>();
  const abandoned: number[] = [];
  const held: (() => void)[] = [];
  let releasedAll = false;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const index = received.push({ headers: req.headers, body, json: JSON.parse(body) }) - 1;
      res.on("close", () => {
        if (!res.writableFinished) abandoned.push(index);
      });
      const respond = (status: number) => {
        answered.set(index, status);
        res.statusCode = status;
        res.end();
      };
      const decision = answer(index);
      if (decision === "hang") return;
      if (decision === "hold" && !releasedAll) held.push(() => respond(200));
      else respond(decision === "hold" ? 200 : decision);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/batch`,
    received,
    abandoned,
    /** The events of the batches answered with a 2xx, in the order they arrived. */
    accepted: () =>
      received.flatMap((request, index) =>
        (answered.get(index) ?? 0) < 300 && answered.has(index) ? request.json.batch : [],
      ),
    release() {
      releasedAll = true;
      for (const respond of held.splice(0)) respond();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/**
 * Waits for something the background sender will do, however long a busy machine takes: the wait has
 * no clock of its own. One that never ends is ended by the test's timeout (the suite's net against
 * hangs), which also stops the polling.
 */
export async function eventually(condition: () => boolean, what: string) {
  let testOver = false;
  onTestFinished(() => {
    testOver = true;
  });
  while (!condition()) {
    if (testOver) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
