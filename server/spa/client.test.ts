import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rejection, startSandbox, TEST_API_KEY, TEST_USER } from "../../tests/helpers/sandbox-server";
import { seedGuid } from "../spa-sandbox/db";
import { guestCreatePayload, mergeGuestChange } from "./booking.server";
import { createSpaClient } from "./client.server";
import { createSpaHttp, TOKEN_CACHE_SECONDS, TOKEN_EXPIRY_MARGIN_SECONDS } from "./http.server";
import { z } from "zod";

/** One of the organisation's configured referral sources in the sandbox. */
const REFERRAL_SOURCE = seedGuid("referral-source:Friend or family");

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
const AUSTIN = seedGuid("center:ATX");
/** What `/v1/tokens` needs beyond the legacy login; the test sandbox's user has these. */
const V1_LOGIN = { endpoint: "v1" as const, accountName: "glowclinic", appSecret: "app-secret-1" };

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.stop();
});
afterEach(() => {
  sandbox.resetFaults();
});

/** A fetch that counts the calls it passes on, by path. */
function countingFetch() {
  const calls: string[] = [];
  const counted: typeof fetch = (input, init) => {
    calls.push(new URL(String(input)).pathname.replace(/^\/api/, ""));
    return fetch(input, init);
  };
  return { fetch: counted, calls };
}

describe("API-key authentication", () => {
  it("reads the catalog with a valid key", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const { centers } = await client.listCenters();
    expect(centers.length).toBeGreaterThanOrEqual(12);
    const austin = centers.find((c) => c.id === AUSTIN);
    expect(austin).toMatchObject({
      slug: "austin-downtown",
      timeZone: "America/Chicago",
      address: { city: "Austin", state: "TX" },
    });
    expect(austin?.latitude).toBeCloseTo(30.27, 1);
    expect(austin?.workingHours[0]).toEqual({ dayOfWeek: 0, opens: null, closes: null });
    expect(austin?.workingHours[1]).toEqual({ dayOfWeek: 1, opens: "09:00", closes: "19:00" });
  });

  it("lists services with prices, add-ons and categories, across pages", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const services = await client.listServices(AUSTIN);
    expect(services).not.toBeNull();
    expect(services!.length).toBeGreaterThan(10);
    const facial = services!.find((s) => s.name === "Signature Laser Facial - New Client");
    expect(facial).toMatchObject({ price: 27500, category: "Facials", isAddOn: false });
    expect(facial!.addOnIds.length).toBeGreaterThan(0);
    const addOn = services!.find((s) => s.id === facial!.addOnIds[0]);
    expect(addOn?.isAddOn).toBe(true);
  });

  it("accepts ids without dashes and in upper case, like Zenoti", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const nurses = await client.listTherapists(AUSTIN.replace(/-/g, "").toUpperCase());
    expect(nurses?.map((n) => n.firstName)).toContain("Maria");
  });

  it("turns a wrong key into an unauthorized error", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: "wrong-key" } });
    const error = await rejection(client.listCenters());
    expect(error).toMatchObject({
      kind: "unauthorized",
      status: 401,
      code: 401,
      message: "Authorization has been denied for this request.",
    });
  });

  it("refuses to call without a key: 400 Must provide an api key", async () => {
    const { fetch, calls } = countingFetch();
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: "" }, fetch });
    const error = await rejection(client.listCenters());
    expect(error).toMatchObject({ kind: "config", status: 400, message: "Must provide an api key" });
    expect(calls).toEqual([]);
  });

  it("refuses an unknown auth strategy with 400", async () => {
    const auth = { type: "oauth" } as unknown as { type: "apikey"; apiKey: string };
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth });
    expect(await rejection(client.listCenters())).toMatchObject({
      kind: "config",
      status: 400,
      message: "Invalid auth strategy",
    });
  });
});

describe("bearer token authentication", () => {
  it("fetches a token once and reuses it for 18,000 seconds", async () => {
    let now = Date.parse("2026-11-21T10:00:00Z");
    const { fetch, calls } = countingFetch();
    const client = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "token", ...TEST_USER },
      fetch,
      clock: () => now,
    });
    await Promise.all([client.listCenters(), client.listTherapists(AUSTIN)]);
    await client.listServices(AUSTIN);
    expect(calls.filter((c) => c === "/Token")).toHaveLength(1);

    now += (TOKEN_CACHE_SECONDS - 1) * 1000;
    await client.listCenters();
    expect(calls.filter((c) => c === "/Token")).toHaveLength(1);

    now += 2000;
    await client.listCenters();
    expect(calls.filter((c) => c === "/Token")).toHaveLength(2);
  });

  it("asks for a new token when the back end stops accepting the cached one", async () => {
    const { fetch, calls } = countingFetch();
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "token", ...TEST_USER }, fetch });
    await client.listCenters();
    sandbox.db.prepare("DELETE FROM access_tokens").run();
    await client.listCenters();
    expect(calls.filter((c) => c === "/Token")).toHaveLength(2);
  });

  it("reports wrong credentials as unauthorized", async () => {
    const client = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "token", ...TEST_USER, password: "nope" },
    });
    expect(await rejection(client.listCenters())).toMatchObject({
      kind: "unauthorized",
      message: "The user name or password is incorrect.",
    });
  });

  it("uses Zenoti's current POST /v1/tokens with a JSON body when configured", async () => {
    const { fetch, calls } = countingFetch();
    const requests: unknown[] = [];
    const spy: typeof fetch = (input, init) => {
      if (String(input).endsWith("/v1/tokens")) requests.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    };
    const client = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "token", ...TEST_USER, ...V1_LOGIN },
      fetch: spy,
    });
    expect((await client.listTherapists(AUSTIN))?.length).toBeGreaterThan(0);
    expect(calls).toEqual(["/v1/tokens", `/v1/centers/${AUSTIN}/therapists`]);
    expect(requests).toEqual([
      {
        account_name: "glowclinic",
        user_name: TEST_USER.username,
        password: TEST_USER.password,
        grant_type: "password",
        app_id: TEST_USER.clientId,
        app_secret: "app-secret-1",
        device_id: "clinic-webstore",
      },
    ]);
  });

  it("refuses a wrong app secret at /v1/tokens as unauthorized", async () => {
    const client = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "token", ...TEST_USER, ...V1_LOGIN, appSecret: "wrong" },
    });
    expect(await rejection(client.listCenters())).toMatchObject({
      kind: "unauthorized",
      status: 401,
      path: "/v1/tokens",
    });
  });

  it("renews a token before the expiry Zenoti gave when that comes before five hours", async () => {
    let now = Date.parse("2026-11-21T10:00:00Z");
    const shortLived = await startSandbox({ tokenLifetimeSeconds: 600, now: () => now });
    try {
      for (const endpoint of ["v1", "legacy"] as const) {
        const { fetch, calls } = countingFetch();
        const start = now;
        const client = createSpaClient({
          baseUrl: shortLived.baseUrl,
          auth: { type: "token", ...TEST_USER, ...V1_LOGIN, endpoint },
          fetch,
          clock: () => now,
        });
        const tokenCalls = () => calls.filter((c) => c === "/v1/tokens" || c === "/Token").length;
        await client.listCenters();
        now = start + (600 - TOKEN_EXPIRY_MARGIN_SECONDS - 1) * 1000;
        await client.listCenters();
        expect(tokenCalls(), endpoint).toBe(1);
        now = start + (600 - TOKEN_EXPIRY_MARGIN_SECONDS + 1) * 1000;
        await client.listCenters();
        expect(tokenCalls(), endpoint).toBe(2);
        expect(calls.filter((c) => c === "/v1/centers")).toHaveLength(3);
      }
    } finally {
      await shortLived.stop();
    }
  });

  it("refuses /v1/tokens without an account name or app secret: 400", async () => {
    for (const missing of ["accountName", "appSecret"] as const) {
      const client = createSpaClient({
        baseUrl: sandbox.baseUrl,
        auth: { type: "token", ...TEST_USER, ...V1_LOGIN, [missing]: undefined },
      });
      expect(await rejection(client.listCenters())).toMatchObject({ kind: "config", status: 400 });
    }
  });

  it("refuses to call without a username, password or client id: 400", async () => {
    for (const missing of ["username", "password", "clientId"] as const) {
      const client = createSpaClient({
        baseUrl: sandbox.baseUrl,
        auth: { type: "token", ...TEST_USER, [missing]: undefined },
      });
      expect(await rejection(client.listCenters())).toMatchObject({ kind: "config", status: 400 });
    }
  });
});

describe("Zenoti's error shapes", () => {
  const http = () => createSpaHttp({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  const anything = z.unknown();

  it("reads error{code,message} from an HTTP 200 answer", async () => {
    const error = await rejection(
      http().request({ method: "GET", path: "/v1/centers/not-a-center/services", schema: anything }),
    );
    expect(error).toMatchObject({ kind: "rejected", status: 200, code: 502, message: "Invalid center_id" });
  });

  it("reads Error{StatusCode,Message} from an HTTP 200 answer", async () => {
    const error = await rejection(
      http().request({ method: "GET", path: "/v1/centers", query: { size: 101 }, schema: anything }),
    );
    expect(error).toMatchObject({
      kind: "rejected",
      status: 200,
      code: 422,
      message: "You cannot request more than 100 items",
    });
  });

  it("reads Error{StatusCode,Message} from an HTTP 400 answer", async () => {
    const error = await rejection(
      http().request({ method: "GET", path: "/v1/Centers/not-a-center", schema: anything }),
    );
    expect(error).toMatchObject({ kind: "rejected", status: 400, code: 502, message: "Invalid center_id" });
  });

  it("falls back to the HTTP response when the body has no error object", async () => {
    const error = await rejection(http().request({ method: "GET", path: "/v1/no-such-endpoint", schema: anything }));
    expect(error.kind).toBe("rejected");
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/No HTTP resource was found/);
  });

  it("maps an unknown center to null in the use-case methods", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    expect(await client.listServices("00000000-0000-0000-0000-000000000000")).toBeNull();
    expect(await client.listTherapists("00000000-0000-0000-0000-000000000000")).toBeNull();
    expect(await client.centerExists("00000000-0000-0000-0000-000000000000")).toBe(false);
    expect(await client.centerExists(AUSTIN)).toBe(true);
  });
});

describe("timeouts and retries", () => {
  it("times out a hanging read once: the timeout is the whole budget of the call, retry included", async () => {
    sandbox.faults.delayMs = 400;
    sandbox.faults.remaining = Infinity;
    const { fetch, calls } = countingFetch();
    const client = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      fetch,
      timeoutMs: 100,
      retryDelayMs: 1,
    });
    const error = await rejection(client.listCenters());
    expect(error).toMatchObject({ kind: "timeout", status: 504, message: "Network Error!" });
    expect(calls).toEqual(["/v1/centers"]);
  });

  it("retries a read that failed fast only within what is left of the budget", async () => {
    sandbox.faults.failWithStatus = 503;
    sandbox.faults.remaining = Infinity;
    const { fetch, calls } = countingFetch();
    // The pause before the retry is longer than the budget: the one retry is not started.
    const client = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      fetch,
      timeoutMs: 300,
      retryDelayMs: 1_000,
    });
    expect(await rejection(client.listCenters())).toMatchObject({ kind: "server", status: 503 });
    expect(calls).toEqual(["/v1/centers"]);
  });

  it("succeeds when the one retry of a read gets through", async () => {
    sandbox.faults.failWithStatus = 503;
    sandbox.faults.remaining = 1;
    const client = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      retryDelayMs: 1,
    });
    expect((await client.listCenters()).centers.length).toBeGreaterThan(0);
  });

  it("does not retry a write", async () => {
    sandbox.faults.failWithStatus = 500;
    sandbox.faults.remaining = Infinity;
    const { fetch, calls } = countingFetch();
    const http = createSpaHttp({
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      fetch,
      retryDelayMs: 1,
    });
    const error = await rejection(
      http.request({ method: "POST", path: "/v1/bookings", body: {}, schema: z.unknown() }),
    );
    expect(error).toMatchObject({ kind: "server", status: 500 });
    expect(calls).toHaveLength(1);
  });

  it("a 429 whose reset does not fit in the call's budget goes up at once, with the reset time", async () => {
    const limited = await startSandbox({ rateLimitPerMinute: 2 });
    try {
      const { fetch, calls } = countingFetch();
      const client = createSpaClient({
        baseUrl: limited.baseUrl,
        auth: { type: "apikey", apiKey: TEST_API_KEY },
        fetch,
        retryDelayMs: 1,
      });
      await client.listTherapists(AUSTIN);
      await client.listTherapists(AUSTIN);
      const error = await rejection(client.listTherapists(AUSTIN));
      expect(error).toMatchObject({ kind: "rate-limited", status: 429, code: 429 });
      expect(error.retryAfterMs).toBeGreaterThan(50_000);
      expect(calls).toHaveLength(3);
      expect(limited.callsByKey()).toEqual({ [TEST_API_KEY]: 3 });
    } finally {
      await limited.stop();
    }
  });

  it("retries a read after a 429 once the bucket has refilled, when that fits in the budget", async () => {
    let skipped = 0;
    // One call a minute, refilled continuously: the one token is back a minute after it was spent.
    const limited = await startSandbox({ rateLimitPerMinute: 1, now: () => Date.now() + skipped });
    try {
      const { fetch, calls } = countingFetch();
      // The client's own budget for a call: the wait and the retry fit in it however busy the machine.
      const client = createSpaClient({
        baseUrl: limited.baseUrl,
        auth: { type: "apikey", apiKey: TEST_API_KEY },
        fetch,
        retryDelayMs: 1,
      });
      await client.listTherapists(AUSTIN);
      skipped = 59_200; // the bucket refills in under a second
      const started = Date.now();
      expect(await client.listTherapists(AUSTIN)).not.toBeNull();
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(calls).toHaveLength(3);
    } finally {
      await limited.stop();
    }
  });

  it("never retries a write that got a 429", async () => {
    let skipped = 0;
    const limited = await startSandbox({ rateLimitPerMinute: 1, now: () => Date.now() + skipped });
    try {
      const { fetch, calls } = countingFetch();
      const http = createSpaHttp({ baseUrl: limited.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY }, fetch });
      await http.request({ method: "GET", path: "/v1/centers", schema: z.unknown() });
      skipped = 59_500;
      const error = await rejection(
        http.request({ method: "POST", path: "/v1/bookings", body: {}, schema: z.unknown() }),
      );
      expect(error).toMatchObject({ kind: "rate-limited", status: 429 });
      expect(calls).toHaveLength(2);
    } finally {
      await limited.stop();
    }
  });

  it("counts calls per organisation: each API key, and a bearer token for its user", async () => {
    const counted = await startSandbox({ apiKeys: [TEST_API_KEY, "second-org-key"] });
    try {
      const one = createSpaClient({ baseUrl: counted.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
      const two = createSpaClient({ baseUrl: counted.baseUrl, auth: { type: "apikey", apiKey: "second-org-key" } });
      const user = createSpaClient({ baseUrl: counted.baseUrl, auth: { type: "token", ...TEST_USER } });
      await one.listTherapists(AUSTIN);
      await one.listTherapists(AUSTIN);
      await two.listTherapists(AUSTIN);
      await user.listTherapists(AUSTIN);
      expect(counted.callsByKey()).toEqual({
        [TEST_API_KEY]: 2,
        "second-org-key": 1,
        anonymous: 1,
        [`user:${TEST_USER.username}`]: 1,
      });
    } finally {
      await counted.stop();
    }
  });
});

describe("response validation", () => {
  let fake: http.Server;
  let fakeUrl: string;
  beforeAll(async () => {
    // A back end that answers 200 with a body of the wrong shape.
    fake = http.createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ clinics: [{ id: "42" }], error: null }));
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  it("rejects a body without the list the call is for", async () => {
    const client = createSpaClient({ baseUrl: fakeUrl, auth: { type: "apikey", apiKey: "k" } });
    expect(await rejection(client.listCenters())).toMatchObject({ kind: "invalid-response", status: 502 });
  });
});

describe("the organisation's guest settings", () => {
  const client = () => createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  const guest = (email: string, phone: string) => ({
    centerId: AUSTIN,
    firstName: "Ana",
    lastName: "Lopez",
    email,
    phone,
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  });

  it("refuses a guest without the mandatory email or mobile number, as Zenoti's code 481", async () => {
    const noPhone = client().createGuest(guest(`nophone.${Date.now()}@example.com`, ""));
    await expect(noPhone).rejects.toMatchObject({
      kind: "rejected",
      code: 481,
      message: "Mandatory fields are missing: mobile_phone",
    });
    await expect(client().createGuest(guest("", "5125550123"))).rejects.toMatchObject({
      code: 481,
      message: "Mandatory fields are missing: email",
    });
  });

  it("an update cannot blank a mandatory field either", async () => {
    const created = await client().createGuest(guest(`blank.${Date.now()}@example.com`, "5125550124"));
    await expect(client().updateGuestProfile(created.id, { phone: "" })).rejects.toMatchObject({ code: 481 });
  });

  it("files a guest only under a configured referral source; a typed code is refused", async () => {
    const typed = { ...guest(`ref.${Date.now()}@example.com`, "5125550125"), referralSourceId: "FRIEND10" };
    await expect(client().createGuest(typed)).rejects.toMatchObject({
      kind: "rejected",
      message: "Invalid referral source",
    });
    const filed = await client().createGuest({ ...typed, referralSourceId: REFERRAL_SOURCE.toUpperCase() });
    expect(filed.id).toBeTruthy();
  });

  it("finds guests by mobile number as well as by email", async () => {
    const email = `byphone.${Date.now()}@example.com`;
    const created = await client().createGuest(guest(email, "5125550188"));
    expect((await client().findGuestsByPhone("(512) 555-0188")).map((g) => g.id)).toContain(created.id);
    expect((await client().findGuestsByEmail(email.toUpperCase())).map((g) => g.id)).toEqual([created.id]);
    expect(await client().findGuestsByPhone("5125550000")).toEqual([]);
  });
});

describe("guest profile updates", () => {
  const sampleGuest = (email: string, phone: string) => ({
    centerId: AUSTIN,
    firstName: "Ana",
    lastName: "Lopez",
    email,
    phone,
    consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
    tags: [],
  });

  it("a profile save keeps staff tags, the birthday, the referral and the gender", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const email = `keep.${Date.now()}@example.com`;
    const created = await client.createGuest({
      centerId: AUSTIN,
      firstName: "Ana",
      lastName: "Lopez",
      email,
      phone: "5125550101",
      address: { line1: "1 Oak St", city: "Austin", zip: "78701" },
      consents: { marketingEmail: true, marketingSms: false, transactionalEmail: true, transactionalSms: true },
      tags: ["Webstore"],
      referralSourceId: REFERRAL_SOURCE,
    });
    // In the clinic, staff tagged the guest and entered her birthday and gender.
    const raw = () =>
      fetch(`${sandbox.baseUrl}/v1/guests/${created.id}`, {
        headers: { authorization: `apikey ${TEST_API_KEY}` },
      }).then((r) => r.json());
    const before = await raw();
    await fetch(`${sandbox.baseUrl}/v1/guests/${created.id}`, {
      method: "PUT",
      headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({
        ...before,
        personal_info: { ...before.personal_info, gender: 1, date_of_birth: "1985-04-12" },
        tags: [...before.tags, "VIP"],
      }),
    });

    const saved = await client.updateGuestProfile(created.id, {
      firstName: "Anita",
      address: { line1: "2 Elm St", city: "Austin", zip: "78702" },
      consents: { marketingSms: true },
    });
    expect(saved).toMatchObject({
      firstName: "Anita",
      lastName: "Lopez",
      phone: "5125550101",
      address: { line1: "2 Elm St", zip: "78702" },
    });
    expect(saved.consents).toEqual({
      marketingEmail: true,
      marketingSms: true,
      transactionalEmail: true,
      transactionalSms: true,
    });
    const after = await raw();
    expect(after.tags).toEqual(["Webstore", "VIP"]);
    expect(after.personal_info).toMatchObject({ date_of_birth: "1985-04-12T00:00:00", gender: 1, email });
    expect(saved).toMatchObject({ birthDate: "1985-04-12", gender: 1 });
    expect(after.referral).toEqual({ referral_source: { id: REFERRAL_SOURCE } });
  });

  it("a guest's own birth date and gender are sent; none is sent for a guest who gave none", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const given = await client.createGuest({
      ...sampleGuest(`dob.${Date.now()}@example.com`, "5125550131"),
      birthDate: "1988-02-29",
      gender: 0,
    });
    expect(given).toMatchObject({ birthDate: "1988-02-29", gender: 0 });
    const none = await client.createGuest(sampleGuest(`nodob.${Date.now()}@example.com`, "5125550132"));
    expect(none).toMatchObject({ birthDate: null, gender: -1 });
    const raw = await fetch(`${sandbox.baseUrl}/v1/guests/${none.id}`, {
      headers: { authorization: `apikey ${TEST_API_KEY}` },
    }).then((r) => r.json());
    // Zenoti's empty date, not a made-up birthday.
    expect(raw.personal_info.date_of_birth).toBe("0001-01-01T00:00:00");

    const changed = await client.updateGuestProfile(given.id, { birthDate: "1990-06-01", gender: 1 });
    expect(changed).toMatchObject({ birthDate: "1990-06-01", gender: 1 });
    // A change that names no birth date keeps the one on file.
    expect(await client.updateGuestProfile(given.id, { firstName: "Ana" })).toMatchObject({
      birthDate: "1990-06-01",
      gender: 1,
    });
  });

  it("the sandbox refuses a birth date it cannot read and a gender outside Zenoti's, and can require either", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    await expect(
      client.createGuest({
        ...sampleGuest(`bad.dob.${Date.now()}@example.com`, "5125550133"),
        birthDate: "1990-02-30",
      }),
    ).rejects.toMatchObject({ kind: "rejected", message: "Invalid date_of_birth" });
    await expect(
      client.createGuest({ ...sampleGuest(`bad.gender.${Date.now()}@example.com`, "5125550134"), gender: 2 }),
    ).rejects.toMatchObject({ kind: "rejected", message: "Invalid gender" });
    const strict = await startSandbox({ mandatoryGuestFields: ["email", "mobile_phone", "date_of_birth"] });
    try {
      const strictClient = createSpaClient({ baseUrl: strict.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
      await expect(
        strictClient.createGuest(sampleGuest(`strict.${Date.now()}@example.com`, "5125550135")),
      ).rejects.toMatchObject({ code: 481, message: "Mandatory fields are missing: date_of_birth" });
      expect(
        (
          await strictClient.createGuest({
            ...sampleGuest(`strict2.${Date.now()}@example.com`, "5125550136"),
            birthDate: "1979-11-03",
          })
        ).birthDate,
      ).toBe("1979-11-03");
    } finally {
      await strict.stop();
    }
  });

  it("a guest's language goes to Zenoti's preferences.culture_id, and none is sent for a guest who chose none", () => {
    const guest = sampleGuest("lang@example.com", "5125550140");
    expect(guestCreatePayload({ ...guest, language: 1 }).preferences).toMatchObject({
      culture_id: 1,
      receive_marketing_email: false,
    });
    for (const none of [undefined, null, 0])
      expect(guestCreatePayload({ ...guest, language: none }).preferences, String(none)).not.toHaveProperty(
        "culture_id",
      );
    expect(guestCreatePayload({ ...guest, language: 1 }).personal_info).not.toHaveProperty("culture_id");
  });

  it("a profile change sets the language among the preferences read, and a change without one keeps the one on file", () => {
    const current = {
      personal_info: { first_name: "A" },
      preferences: { receive_marketing_email: true, receive_transactional_sms: false, culture_id: 54 },
    };
    expect(mergeGuestChange(current, { language: 1 }).preferences).toEqual({
      receive_marketing_email: true,
      receive_transactional_sms: false,
      culture_id: 1,
    });
    expect(mergeGuestChange(current, { firstName: "B" }).preferences).toEqual(current.preferences);
    expect(mergeGuestChange(current, { language: 0 }).preferences).toEqual(current.preferences);
    expect(mergeGuestChange(current, { consents: { marketingSms: true } }).preferences).toMatchObject({
      culture_id: 54,
      receive_marketing_sms: true,
    });
    // No consents on file: the language alone is sent, no consent is made up.
    expect(mergeGuestChange({ personal_info: {}, preferences: null }, { language: 1 }).preferences).toEqual({
      culture_id: 1,
    });
  });

  it("the language is stored and read back through the sandbox; a clinic's other language survives a save", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const english = await client.createGuest({
      ...sampleGuest(`lang.${Date.now()}@example.com`, "5125550141"),
      language: 1,
    });
    expect(english.language).toBe(1);
    expect((await client.getGuest(english.id))?.language).toBe(1);
    const none = await client.createGuest(sampleGuest(`nolang.${Date.now()}@example.com`, "5125550142"));
    expect(none.language).toBeNull();
    const raw = (id: string) =>
      fetch(`${sandbox.baseUrl}/v1/guests/${id}?expand=preferences`, {
        headers: { authorization: `apikey ${TEST_API_KEY}` },
      }).then((r) => r.json());
    expect((await raw(none.id)).preferences).not.toHaveProperty("culture_id");

    // At the clinic, staff filed another culture; a profile save that names no language keeps it.
    const before = await raw(none.id);
    await fetch(`${sandbox.baseUrl}/v1/guests/${none.id}`, {
      method: "PUT",
      headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ ...before, preferences: { ...before.preferences, culture_id: 54 } }),
    });
    expect(await client.updateGuestProfile(none.id, { firstName: "Ana", gender: 0 })).toMatchObject({
      language: 54,
      gender: 0,
    });
    expect(await client.updateGuestProfile(none.id, { language: 1 })).toMatchObject({ language: 1 });
  });

  it("the sandbox refuses a language that is not one of Zenoti's culture ids", async () => {
    const client = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    const created = await client.createGuest(sampleGuest(`lang.bad.${Date.now()}@example.com`, "5125550143"));
    const current = await fetch(`${sandbox.baseUrl}/v1/guests/${created.id}?expand=preferences`, {
      headers: { authorization: `apikey ${TEST_API_KEY}` },
    }).then((r) => r.json());
    for (const culture of [0, -1, 1.5, "1", true]) {
      const answer = await fetch(`${sandbox.baseUrl}/v1/guests/${created.id}`, {
        method: "PUT",
        headers: { authorization: `apikey ${TEST_API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ ...current, preferences: { ...current.preferences, culture_id: culture } }),
      }).then((r) => r.json());
      expect(answer.error, String(culture)).toMatchObject({ code: 400, message: "Invalid culture_id" });
    }
  });

  it("adds tags without dropping the ones already there", () => {
    const merged = mergeGuestChange(
      { personal_info: { first_name: "A" }, tags: ["VIP"] },
      { addTags: ["Webstore", "VIP"] },
    );
    expect(merged.tags).toEqual(["VIP", "Webstore"]);
  });
});

describe("money at the boundary", () => {
  let fake: http.Server;
  let fakeUrl: string;
  const service = (id: string, salePrice: number) => ({
    id,
    name: id,
    duration: 15,
    price_info: { sale_price: salePrice },
  });
  beforeAll(async () => {
    // A back end that sends Zenoti's decimal dollars, float error included.
    fake = http.createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url?.startsWith("/v1/Centers/c-1/services")) {
        res.end(
          JSON.stringify({
            services: [
              service("a", 19.99),
              service("b", 0.1 + 0.2),
              service("c", 275),
              service("d", 59.5),
              service("e", 1.15),
            ],
            page_info: { total: 5, page: 1, size: 100 },
          }),
        );
        return;
      }
      if (req.url?.startsWith("/v1/invoices/inv-1")) {
        res.end(
          JSON.stringify({
            invoice: {
              id: "INV-1",
              invoice_dues: { total: 0.1 + 0.2 + 19.99, paid: 19.99, balance: 0.1 + 0.2 },
              invoice_items: [
                {
                  invoice_item_id: "I-1",
                  id: "S-1",
                  name: "Facial",
                  price: { sales: 275, final: 247.5, discount: 27.5 },
                },
                { invoice_item_id: "I-2", id: "S-2", name: "LED", price: { sales: 19.99, final: 17.99, discount: 2 } },
                { invoice_item_id: "I-3", id: "S-3", name: "Fixer", price: { sales: 0.3, final: 0.3, discount: null } },
              ],
            },
          }),
        );
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { code: 404, message: "not found" } }));
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  it("turns service prices into whole cents", async () => {
    const client = createSpaClient({ baseUrl: fakeUrl, auth: { type: "apikey", apiKey: "k" } });
    const services = await client.listServices("c-1");
    expect(services?.map((s) => s.price)).toEqual([1999, 30, 27500, 5950, 115]);
  });

  it("turns an invoice's dues and lines into whole cents", async () => {
    const client = createSpaClient({ baseUrl: fakeUrl, auth: { type: "apikey", apiKey: "k" } });
    const invoice = await client.getInvoice("inv-1");
    expect(invoice).toMatchObject({ id: "inv-1", total: 2029, paid: 1999, balance: 30 });
    expect(invoice.items.map((i) => [i.price, i.discount, i.final])).toEqual([
      [27500, 2750, 24750],
      [1999, 200, 1799],
      [30, 0, 30],
    ]);
  });
});
