import type { NextFunction, Request, Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { onlyFromThisMachine } from "./index";

function call(remoteAddress: string, headers: Record<string, string> = {}) {
  const answer: { status?: number; body?: unknown; passed: boolean } = { passed: false };
  const res = {
    status(code: number) {
      answer.status = code;
      return res;
    },
    json(body: unknown) {
      answer.body = body;
      return res;
    },
  } as unknown as Response;
  const next: NextFunction = () => {
    answer.passed = true;
  };
  onlyFromThisMachine({ socket: { remoteAddress }, headers } as unknown as Request, res, next);
  return answer;
}

describe("the sandbox API's door", () => {
  it("refuses a peer on another machine, in Zenoti's error shape", () => {
    const answer = call("203.0.113.5", { authorization: `apikey ${TEST_API_KEY}` });
    expect(answer.passed).toBe(false);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: { code: 403, message: expect.stringMatching(/this machine/) } });
  });
  it("refuses a request forwarded by a proxy on this machine", () => {
    expect(call("127.0.0.1", { "x-forwarded-for": "203.0.113.5" }).status).toBe(403);
  });
  it("lets the app on this machine through", () => {
    expect(call("127.0.0.1").passed).toBe(true);
    expect(call("::ffff:127.0.0.1").passed).toBe(true);
    expect(call("::1").passed).toBe(true);
  });
});

describe("the sandbox over HTTP", () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.stop();
  });
  const auth = { authorization: `apikey ${TEST_API_KEY}` };

  it("answers the API from this machine and refuses it through a proxy", async () => {
    expect((await fetch(`${sandbox.baseUrl}/v1/centers`, { headers: auth })).status).toBe(200);
    const proxied = await fetch(`${sandbox.baseUrl}/v1/centers`, {
      headers: { ...auth, "x-forwarded-for": "203.0.113.5" },
    });
    expect(proxied.status).toBe(403);
    expect(await proxied.json()).toMatchObject({ error: { code: 403 } });
  });
  it("keeps the hosted card page open to guests' browsers from anywhere", async () => {
    const page = await fetch(`${sandbox.baseUrl}/hosted/card/no-such-token`, {
      headers: { "x-forwarded-for": "203.0.113.5" },
    });
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("This card link has expired");
  });
});
