import http from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import { createSpaClient, type SpaClientOptions } from "../../server/spa/client.server";

export type CannedAnswer = { status?: number; headers?: Record<string, string>; body: unknown };

/**
 * A stand-in back end on a loopback port that answers each path (without its query) with a
 * canned JSON body: for shapes the sandbox never produces.
 */
export async function startJsonBackend(
  answers: Record<string, CannedAnswer | ((url: URL, body: string) => CannedAnswer)>,
) {
  const requests: { method: string; url: URL; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://backend");
      requests.push({ method: req.method ?? "GET", url, body });
      const answer = answers[url.pathname];
      const canned = typeof answer === "function" ? answer(url, body) : answer;
      res.statusCode = canned ? (canned.status ?? 200) : 404;
      for (const [name, value] of Object.entries(canned?.headers ?? {})) res.setHeader(name, value);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(canned ? canned.body : { Message: "No HTTP resource was found" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The spa client on a JSON back end of this test's own, stopped when the test ends. */
export async function clientOnJsonBackend(
  answers: Parameters<typeof startJsonBackend>[0],
  options: Omit<SpaClientOptions, "baseUrl" | "auth"> = {},
) {
  const backend = await startJsonBackend(answers);
  onTestFinished(() => backend.stop());
  return {
    backend,
    client: createSpaClient({ baseUrl: backend.baseUrl, auth: { type: "apikey", apiKey: "k" }, ...options }),
  };
}
