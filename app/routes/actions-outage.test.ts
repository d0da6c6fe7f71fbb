import type { RouteConfigEntry } from "@react-router/dev/routes";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { TEST_PASSWORD } from "../../tests/e2e/helpers";
import { createServices } from "#server/compose.server";
import type { Services } from "#server/services";
import { parseEnv } from "#server/env.server";
import { createRequestContext, sessionMiddleware } from "#server/request-context.server";
import { OUTAGE_MESSAGE } from "#server/unavailable.server";

/**
 * Every action of app/routes.ts (and the JSON API's calls) with the back end down: unreachable,
 * failing with 500s, or rate-limited with 429s. None answers a 500. A form answers 503 and keeps
 * what was typed (never the password); the JSON API answers a JSON 503; a rate-limited back end
 * adds Retry-After. A route added with an action and no case here fails the first test.
 */

const CENTER_ID = "0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8";
const SERVICE_ID = "1c2d3e4f-5061-4b72-8c83-a4b5c6d7e8f9";
const VISIT_ID = "2d3e4f50-6172-4c83-9d94-b5c6d7e8f9a0";

type Case = {
  method?: string;
  url: string;
  /** Form fields, or a JSON body. */
  form?: Record<string, string>;
  json?: Record<string, unknown>;
  session?: "signed-in" | "booking";
  /** The answer: "outage" (the back end is called: a 503 that keeps the input) or "no-500" (it is not reached). */
  expect: "outage" | "no-500";
  loader?: true;
};

const unknownGuest = { email: "new.guest@example.com", password: TEST_PASSWORD };
const registration = {
  firstName: "Mia",
  lastName: "Rivera",
  email: "mia.outage@example.com",
  phone: "512-555-0177",
  centerId: CENTER_ID,
  address: "12 Oak St",
  city: "Austin",
  zip: "78701",
  password: TEST_PASSWORD,
  ageConfirmed: "on",
};

/** One or more cases per route module with an action, by its file in app/routes.ts. */
const CASES: Record<string, Case[]> = {
  "routes/account/login.tsx": [{ url: "/login", form: unknownGuest, expect: "outage" }],
  "routes/account/forgot-password.tsx": [
    { url: "/forgot-password", form: { email: unknownGuest.email }, expect: "outage" },
  ],
  "routes/account/register.tsx": [{ url: "/register", form: registration, expect: "outage" }],
  "routes/account/reset-password.tsx": [
    { url: "/reset-password", form: { code: "123456", password: TEST_PASSWORD }, expect: "no-500" },
  ],
  "routes/account/logout.tsx": [{ url: "/logout", form: {}, session: "signed-in", expect: "no-500" }],
  "routes/account/profile.tsx": [
    {
      url: "/account/profile",
      session: "signed-in",
      form: {
        intent: "details",
        firstName: "Amelia",
        lastName: "Rivera",
        phone: "512-555-0177",
        address: "1 Elm St",
        city: "Round Rock",
        zip: "78664",
      },
      expect: "outage",
    },
    {
      url: "/account/profile",
      session: "signed-in",
      form: { intent: "consents", marketingEmail: "on" },
      expect: "outage",
    },
  ],
  "routes/api/users.ts": [
    { url: "/api/users/login", json: unknownGuest, expect: "outage" },
    { url: "/api/users", json: { ...registration, ageConfirmed: true }, expect: "outage" },
    {
      method: "GET",
      url: `/api/users/forgot-password?email=${encodeURIComponent(unknownGuest.email)}`,
      loader: true,
      expect: "outage",
    },
    {
      url: "/api/users/reset-password",
      json: { email: unknownGuest.email, code: "123456", password: TEST_PASSWORD },
      expect: "no-500",
    },
  ],
  "routes/memberships/plans.tsx": [
    {
      url: "/memberships",
      session: "signed-in",
      form: { clinic: CENTER_ID, itemId: SERVICE_ID, price: "10000", purchaseKey: "k-membership-0001" },
      expect: "no-500",
    },
  ],
  "routes/packages/list.tsx": [
    {
      url: "/packages",
      session: "signed-in",
      form: { clinic: CENTER_ID, itemId: SERVICE_ID, price: "10000", purchaseKey: "k-package-00001" },
      expect: "no-500",
    },
  ],
  "routes/gift-cards/buy.tsx": [
    { url: "/gift-cards", form: { intent: "balance", number: "GC-1234-5678" }, expect: "no-500" },
  ],
  "routes/purchases/status.tsx": [{ url: `/purchases/${VISIT_ID}`, session: "signed-in", form: {}, expect: "no-500" }],
  "routes/appointment/service.tsx": [
    { url: `/appointment/service?id=${CENTER_ID}`, form: { serviceId: SERVICE_ID }, expect: "outage" },
  ],
  "routes/appointment/time.tsx": [
    {
      url: "/appointment/time",
      session: "booking",
      form: { date: "2030-01-07", slot: "2030-01-07T10:00:00" },
      expect: "outage",
    },
  ],
  "routes/appointment/details.tsx": [
    {
      url: "/appointment/details",
      session: "booking",
      form: { firstName: "Mia", lastName: "Rivera", email: unknownGuest.email, phone: "512-555-0177" },
      expect: "no-500",
    },
  ],
  "routes/appointment/verify.tsx": [
    { url: "/appointment/verify", session: "booking", form: { code: "123456" }, expect: "no-500" },
  ],
  "routes/appointment/payment.tsx": [
    { url: "/appointment/payment", session: "booking", form: { intent: "pay" }, expect: "no-500" },
  ],
  "routes/appointment/cancel.tsx": [{ url: "/appointment/cancel", session: "booking", form: {}, expect: "no-500" }],
  // A reminder's link is checked before anything is read: one not sent is its 404 page.
  "routes/appointment/resume.tsx": [{ url: "/appointment/resume/not-a-link", form: {}, expect: "no-500" }],
  "routes/dev/recovery-messages.ts": [{ url: "/dev/recovery-messages", form: {}, expect: "no-500" }],
  "routes/appointment/waitlist.tsx": [
    {
      url: "/appointment/waitlist",
      session: "booking",
      form: { clinic: CENTER_ID, days: "2030-01-07", parts: "morning", contact: unknownGuest.email, consent: "on" },
      expect: "outage",
    },
  ],
  "routes/account/waitlist.tsx": [
    { url: "/account/waitlist", session: "signed-in", form: { entry: "not-an-entry" }, expect: "no-500" },
  ],
  "routes/visits/cancel.tsx": [
    {
      url: `/account/appointments/${VISIT_ID}/cancel`,
      session: "signed-in",
      form: { reason: "1", comment: "Away" },
      expect: "outage",
    },
  ],
  "routes/visits/reschedule.tsx": [
    {
      url: `/account/appointments/${VISIT_ID}/reschedule`,
      session: "signed-in",
      form: { intent: "hold", date: "2030-01-07", slot: "2030-01-07T10:00:00" },
      expect: "outage",
    },
  ],
  "routes/system/not-found.tsx": [{ url: "/nowhere", form: {}, expect: "no-500" }],
};

function routeFiles(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [entry.file, ...routeFiles(entry.children ?? [])]);
}

type RouteModule = { action?: (args: unknown) => Promise<unknown>; loader?: (args: unknown) => Promise<unknown> };

async function routeModule(file: string): Promise<RouteModule> {
  return (await import(/* @vite-ignore */ path.join(import.meta.dirname, "..", file))) as RouteModule;
}

/** A back end that answers every call with `status` (and Retry-After for a 429). */
async function answeringBackEnd(status: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(status, { "content-type": "application/json", ...(status === 429 ? { "retry-after": "120" } : {}) });
    res.end(JSON.stringify({ Message: "unavailable", StatusCode: status }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type Answer = { status: number; headers: Headers; body: unknown };

/** What React Router makes of an action's outcome: returned or thrown data, a Response, or an error (500). */
function answerOf(outcome: unknown, thrown: boolean): Answer {
  if (outcome instanceof Response) return { status: outcome.status, headers: outcome.headers, body: null };
  if (outcome && typeof outcome === "object" && (outcome as { type?: unknown }).type === "DataWithResponseInit") {
    const { data, init } = outcome as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), body: data };
  }
  return { status: thrown ? 500 : 200, headers: new Headers(), body: outcome };
}

const SIGNED_IN = { id: "outage-account", email: "signed.in@example.com" };

/** The cookie of a signed-in guest (an account and a session in the stores) or of a booking in progress. */
async function cookieFor(services: Services, kind: Case["session"]): Promise<string> {
  if (!kind) return "";
  const session = await services.sessions.read(null);
  if (kind === "signed-in") {
    if (!(await services.stores.accounts.getById(SIGNED_IN.id))) {
      await services.stores.accounts.create({
        id: SIGNED_IN.id,
        email: SIGNED_IN.email,
        guestId: VISIT_ID,
        centerId: CENTER_ID,
        passwordHash: "unused",
        createdAt: 1,
        passwordChangedAt: 1,
      });
    }
    // A session of its own for each case: signing out ends the one it was sent with.
    const token = randomUUID();
    const tokenHash = createHash("sha256").update(token).digest("hex");
    await services.stores.userSessions.create({
      tokenHash,
      userId: SIGNED_IN.id,
      createdAt: Date.now(),
      expiresAt: Date.now() + 3_600_000,
      revoked: false,
    });
    session.set("userSessionId", token);
  } else {
    session.set("draft", {
      centerId: CENTER_ID,
      serviceId: SERVICE_ID,
      addOnIds: [],
      therapistId: null,
      date: "2030-01-07",
    });
  }
  const cookies = await services.sessions.write(session);
  return cookies.map((cookie) => cookie.split(";")[0]).join("; ");
}

async function run(services: Services, file: string, testCase: Case): Promise<Answer> {
  const module = await routeModule(file);
  const handler = testCase.loader ? module.loader! : module.action!;
  const method = testCase.method ?? "POST";
  const headers = new Headers({ cookie: await cookieFor(services, testCase.session), origin: "http://localhost" });
  let body: BodyInit | undefined;
  if (testCase.json) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(testCase.json);
  } else if (testCase.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(testCase.form).toString();
  }
  const request = new Request(`http://localhost${testCase.url}`, { method, headers, body });
  const url = new URL(request.url);
  const params = Object.fromEntries(
    url.pathname
      .split("/")
      .filter(Boolean)
      .map((part, i, parts) => [i === 0 ? "*" : "id", parts.slice(i).join("/")]),
  );
  if (url.pathname.startsWith("/api/users")) params["*"] = url.pathname.slice("/api/users/".length);
  if (url.pathname.startsWith("/account/appointments/")) params.id = VISIT_ID;
  if (url.pathname.startsWith("/purchases/")) params.id = VISIT_ID;
  const context = createRequestContext({ services, nonce: "n", clientIp: "203.0.113.9", fromThisMachine: false });
  let answer: Answer | null = null;
  await sessionMiddleware({ request, context, params, unstable_pattern: "" } as never, async () => {
    try {
      answer = answerOf(await handler({ request, context, params }), false);
    } catch (error) {
      answer = answerOf(error, true);
    }
    return new Response(null);
  });
  return answer!;
}

describe("every action of app/routes.ts with the back end down", () => {
  it("has a case for each route module with an action", async () => {
    const files = [...new Set(routeFiles(routes))];
    const withAction: string[] = [];
    for (const file of files) if ((await routeModule(file)).action) withAction.push(file);
    expect(withAction.sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const backEnd of [
    { name: "unreachable", status: null },
    { name: "failing (500)", status: 500 },
    { name: "rate-limited (429)", status: 429 },
  ] as const) {
    describe(`with a back end that is ${backEnd.name}`, () => {
      let services: Services;
      let close = async () => {};
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outage-actions-"));

      beforeAll(async () => {
        let url = "http://127.0.0.1:9";
        if (backEnd.status) ({ url, close } = await answeringBackEnd(backEnd.status));
        const env = parseEnv({
          NODE_ENV: "test",
          DATA_DIR: dataDir,
          LOG_LEVEL: "error",
          SPA_BASE_URL: url,
          SPA_API_KEY: "unused",
          SPA_AVAILABILITY_GUEST_ID: "3e4f5061-7283-4d94-8ea5-c6d7e8f9a0b1",
          SESSION_SECRETS: "outage-test-secret-0123456789abcdef0123",
          SPA_TIMEOUT_MS: "2000",
        });
        services = await createServices(env, { sandboxBaseUrl: url });
      });

      afterAll(async () => {
        await services.stores.close();
        await close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      });

      for (const [file, cases] of Object.entries(CASES)) {
        for (const testCase of cases) {
          it(`${testCase.method ?? "POST"} ${testCase.url.split("?")[0]} (${file}) answers ${testCase.expect === "outage" ? "503" : "without a 500"}`, async () => {
            const answer = await run(services, file, testCase);
            expect(answer.status).not.toBe(500);
            if (testCase.expect === "no-500") return;
            expect(answer.status).toBe(503);
            // Zenoti's reset time, as the call governor keeps it (decision 036).
            if (backEnd.status === 429) expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
            if (file === "routes/api/users.ts") {
              expect(answer.body).toMatchObject({ error: OUTAGE_MESSAGE });
              return;
            }
            const { result } = answer.body as {
              result: { error: Record<string, string[]>; initialValue: Record<string, unknown> };
            };
            expect(result.error[""]).toEqual([OUTAGE_MESSAGE]);
            for (const [name, value] of Object.entries(testCase.form ?? {})) {
              if (name === "password") expect(result.initialValue).not.toHaveProperty(name);
              else expect(result.initialValue[name]).toBe(value);
            }
          });
        }
      }
    });
  }
});
