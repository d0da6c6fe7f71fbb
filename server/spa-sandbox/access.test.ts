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

  it("sends a service's catalog picture only when asked, on its image host, open to guests' browsers", async () => {
    const centers = (await (await fetch(`${sandbox.baseUrl}/v1/centers`, { headers: auth })).json()) as {
      centers: { id: string }[];
    };
    const servicesAt = async (query: string) =>
      (
        (await (
          await fetch(`${sandbox.baseUrl}/v1/Centers/${centers.centers[0].id}/services?size=100${query}`, {
            headers: auth,
          })
        ).json()) as { services: { name: string; image_paths: string | null }[] }
      ).services;
    expect((await servicesAt("")).every((s) => s.image_paths === null)).toBe(true);
    const expanded = await servicesAt("&expand=image_paths");
    const pictured = expanded.filter((s) => s.image_paths !== null);
    // Some services have a picture and some none, as in a real catalog.
    expect(pictured.length).toBeGreaterThan(0);
    expect(pictured.length).toBeLessThan(expanded.length);
    const picture = await fetch(pictured[0].image_paths as string, { headers: { "x-forwarded-for": "203.0.113.5" } });
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await picture.text()).toMatch(/^<svg /);
    expect((await fetch(`${sandbox.baseUrl}/images/nothing.svg`)).status).toBe(404);
  });
});
