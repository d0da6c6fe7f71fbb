import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How a matched call goes wrong between the app and the back end:
 * - "reset-before": the connection is cut before the back end sees the call (nothing happened);
 * - "reset-after": the back end does the call, then the connection is cut (the answer is lost);
 * - "hang-after": the back end does the call, the answer never comes (the app times out);
 * - "error-after": the back end does the call, a gateway answers 502 instead.
 */
export type FaultMode = "reset-before" | "reset-after" | "hang-after" | "error-after";

/**
 * `centerId` limits a rule to the calls of one clinic's bookings, and `bodyContains` to calls whose
 * body has that text (an email, say), so tests running at once keep apart.
 */
export type FaultRule = {
  method: string;
  path: RegExp;
  mode: FaultMode;
  times?: number;
  centerId?: string;
  bodyContains?: string;
};

/** The control path: POST a rule as JSON ({ method, path, mode, times, centerId }, path a regex source). */
export const FAULTS_PATH = "/__faults";
/** A stand-in SMS provider for the test servers with a real back end (they need one to start, decision 029). */
export const MESSAGES_PATH = "/__sms";

export type FaultProxy = {
  /** The target's base URL, through the proxy. */
  baseUrl: string;
  fail(rule: FaultRule): void;
  clear(): void;
  /** "METHOD /path" of every call the proxy saw, in order. */
  calls: string[];
  stop(): Promise<void>;
};

/**
 * A fault-injecting HTTP proxy on a loopback port in front of `target` (a base URL with a path).
 * It learns which clinic each booking and invoice belongs to from the bodies it passes on.
 */
export async function startFaultProxy(target: string, options: { port?: number } = {}): Promise<FaultProxy> {
  const upstream = new URL(target);
  const rules: (FaultRule & { left: number })[] = [];
  const hanging = new Set<http.ServerResponse>();
  const calls: string[] = [];
  const centerOf = new Map<string, string>();

  const learn = (path: string, requestBody: Buffer, answer: Buffer) => {
    try {
      if (/\/v1\/bookings$/.test(path)) {
        const center = (JSON.parse(requestBody.toString()) as { center_id?: string }).center_id;
        const id = (JSON.parse(answer.toString()) as { id?: string }).id;
        if (center && id) centerOf.set(id.toLowerCase(), center.toLowerCase());
      }
      const confirm = /\/v1\/bookings\/([^/]+)\/slots\/confirm$/.exec(path);
      const invoiceId =
        confirm && (JSON.parse(answer.toString()) as { invoice?: { invoice_id?: string } }).invoice?.invoice_id;
      const center = confirm && centerOf.get(confirm[1].toLowerCase());
      if (invoiceId && center) centerOf.set(invoiceId.toLowerCase(), center);
    } catch {
      // Not JSON: nothing to learn.
    }
  };
  const centerOfPath = (path: string) => {
    const id = /\/v1\/(?:bookings|invoices)\/([^/]+)/.exec(path)?.[1];
    return id ? centerOf.get(id.toLowerCase()) : undefined;
  };
  const addRule = (rule: FaultRule) =>
    rules.push({ ...rule, centerId: rule.centerId?.toLowerCase(), left: rule.times ?? 1 });

  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === FAULTS_PATH) return control(req, res);
    if (path === MESSAGES_PATH) {
      // The test servers' SMS provider: takes the text and forgets it.
      req.resume();
      req.on("end", () => res.writeHead(202, { "x-message-id": `sink-${Date.now()}` }).end());
      return;
    }
    calls.push(`${req.method} ${path}`);
    const sent: Buffer[] = [];
    req.on("data", (chunk: Buffer) => sent.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(sent);
      const rule = rules.find(
        (r) =>
          r.left > 0 &&
          r.method === req.method &&
          r.path.test(path) &&
          (!r.centerId || r.centerId === centerOfPath(path)) &&
          (!r.bodyContains || body.includes(r.bodyContains)),
      );
      if (rule) rule.left -= 1;
      if (rule?.mode === "reset-before") {
        req.socket.destroy();
        return;
      }
      // The Host header passes unchanged, so pages the back end links to stay behind the proxy.
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => {
            learn(path, body, Buffer.concat(chunks));
            if (rule?.mode === "reset-after") {
              res.socket?.destroy();
              return;
            }
            if (rule?.mode === "hang-after") {
              hanging.add(res);
              return;
            }
            if (rule?.mode === "error-after") {
              res.writeHead(502, { "content-type": "text/html" }).end("<html><body>502 Bad Gateway</body></html>");
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(chunks));
          });
        },
      );
      forward.on("error", () => res.socket?.destroy());
      forward.end(body);
    });
  });
  function control(req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ rules: rules.length }));
      return;
    }
    if (req.method === "DELETE") {
      rules.length = 0;
      res.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as Omit<FaultRule, "path"> & { path: string };
      addRule({ ...body, path: new RegExp(body.path) });
      res.writeHead(204).end();
    });
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = new URL(target);
  base.host = `127.0.0.1:${port}`;

  return {
    baseUrl: base.toString().replace(/\/$/, ""),
    fail: addRule,
    clear() {
      rules.length = 0;
    },
    calls,
    async stop() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
