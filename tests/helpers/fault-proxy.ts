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

export type FaultRule = { method: string; path: RegExp; mode: FaultMode; times?: number };

export type FaultProxy = {
  /** The target's base URL, through the proxy. */
  baseUrl: string;
  fail(rule: FaultRule): void;
  clear(): void;
  /** "METHOD /path" of every call the proxy saw, in order. */
  calls: string[];
  stop(): Promise<void>;
};

/** A fault-injecting HTTP proxy on a loopback port in front of `target` (a base URL with a path). */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const rules: (FaultRule & { left: number })[] = [];
  const hanging = new Set<http.ServerResponse>();
  const calls: string[] = [];

  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    calls.push(`${req.method} ${path}`);
    const rule = rules.find((r) => r.left > 0 && r.method === req.method && r.path.test(path));
    if (rule) rule.left -= 1;
    if (rule?.mode === "reset-before") {
      req.socket.destroy();
      return;
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
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
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = new URL(target);
  base.host = `127.0.0.1:${port}`;

  return {
    baseUrl: base.toString().replace(/\/$/, ""),
    fail(rule) {
      rules.push({ ...rule, left: rule.times ?? 1 });
    },
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
