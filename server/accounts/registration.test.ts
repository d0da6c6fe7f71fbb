import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIRTH_DATE_MESSAGES } from "~/domain/account-forms";
import { ACCOUNT_MESSAGES } from "~/domain/accounts";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { createRecordingAnalytics } from "../../tests/helpers/recording-analytics";
import { parseEnv } from "../env.server";
import { createOutboxNotifier } from "../notify/notifier.server";
import { seedGuid } from "../spa-sandbox/db";
import { createCachedCatalog } from "../spa/catalog-cache.server";
import { createSpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Registration, Services } from "../services";
import { createAccountService } from "./account-service.server";
import { loadProfile, saveProfile } from "./profile.server";
import { createMemoryRateLimiter } from "./rate-limit.server";

/**
 * Registration and sign-in against the sandbox: the guest's own birth date and gender in the back
 * end (none made up), the same-first-name duplicate, and the spec's sign-in messages (decision 039).
 */

const AUSTIN = seedGuid("center:ATX");
type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let n = 0;

function servicesOn(sandbox: Sandbox): Services {
  const spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  const services = {
    env: parseEnv({ NODE_ENV: "test", PASSWORD_HASH_COST: "low" }),
    spa,
    stores: createSqliteStores(":memory:"),
    catalog: createCachedCatalog(spa, { ttlMs: 600_000, staleMs: 0 }),
    notifier: createOutboxNotifier(":memory:"),
    rateLimiter: createMemoryRateLimiter(),
    analytics: createRecordingAnalytics(),
    leads: {
      kind: "off",
      send: () => undefined,
      close: async () => {},
      stats: () => ({ sent: 0, failed: 0, dropped: 0, inFlight: 0 }),
    },
  } as unknown as Services;
  services.accounts = createAccountService(services);
  return services;
}

function registration(extra: Partial<Registration> = {}): Registration {
  n += 1;
  return {
    firstName: "Mia",
    lastName: "Rivera",
    email: `mia.${n}.${Date.now()}@example.com`,
    phone: `51255520${String(n).padStart(2, "0")}`,
    centerId: AUSTIN,
    address: "12 Oak St",
    city: "Austin",
    zip: "78701",
    password: "Glow!Skin2026",
    referralCode: null,
    marketingEmail: false,
    marketingSms: false,
    ...extra,
  };
}

let sandbox: Sandbox;
let services: Services;
beforeAll(async () => {
  sandbox = await startSandbox();
  services = servicesOn(sandbox);
});
afterAll(async () => {
  await sandbox.stop();
});

/** The guest as the sandbox holds it. */
function storedPersonalInfo(guestId: string): { date_of_birth?: unknown; gender?: unknown } {
  const row = sandbox.db.prepare("SELECT payload FROM guests WHERE id = ?").get(guestId) as { payload: string };
  return (JSON.parse(row.payload) as { personal_info: { date_of_birth?: unknown; gender?: unknown } }).personal_info;
}

describe("birth date and gender at registration", () => {
  it("writes the guest's own birth date and gender to the back end", async () => {
    const result = await services.accounts.register(registration({ birthDate: "1991-04-18", gender: 0 }));
    if (!result.ok) throw new Error(result.message);
    expect(await services.spa.getGuest(result.value.user.guestId)).toMatchObject({
      birthDate: "1991-04-18",
      gender: 0,
    });
  });

  it("sends no birth date at all for a guest who gave none", async () => {
    const result = await services.accounts.register(registration({ birthDate: null, gender: -1 }));
    if (!result.ok) throw new Error(result.message);
    expect(storedPersonalInfo(result.value.user.guestId)).not.toHaveProperty("date_of_birth");
    expect(await services.spa.getGuest(result.value.user.guestId)).toMatchObject({ birthDate: null, gender: -1 });
  });

  it("at a tenant that requires a birthday, asks for it next to the field", async () => {
    const strict = await startSandbox({ mandatoryGuestFields: ["email", "mobile_phone", "date_of_birth"] });
    try {
      const strictServices = servicesOn(strict);
      expect(await strictServices.accounts.register(registration())).toEqual({
        ok: false,
        field: "birthDate",
        message: BIRTH_DATE_MESSAGES.required,
      });
      expect((await strictServices.accounts.register(registration({ birthDate: "1985-07-01" }))).ok).toBe(true);
    } finally {
      await strict.stop();
    }
  });
});

describe("language at registration and on the profile (decision 043)", () => {
  const storedPreferences = (guestId: string) =>
    (
      JSON.parse(
        (sandbox.db.prepare("SELECT payload FROM guests WHERE id = ?").get(guestId) as { payload: string }).payload,
      ) as { preferences: Record<string, unknown> }
    ).preferences;

  it("a language chosen at registration is on the profile when it is opened again", async () => {
    const result = await services.accounts.register(registration({ language: 1 }));
    if (!result.ok) throw new Error(result.message);
    expect(storedPreferences(result.value.user.guestId)).toMatchObject({ culture_id: 1 });
    expect((await loadProfile(services, result.value.user)).details.language).toBe(1);
  });

  it("none chosen sends none; chosen on the profile later it is saved, and a save without one keeps it", async () => {
    const result = await services.accounts.register(registration({ language: null }));
    if (!result.ok) throw new Error(result.message);
    const { user } = result.value;
    expect(storedPreferences(user.guestId)).not.toHaveProperty("culture_id");
    const { details } = await loadProfile(services, user);
    expect(details.language).toBeNull();
    expect(await saveProfile(services, user, { details: { ...details, language: 1 } })).toBe("saved");
    expect((await loadProfile(services, user)).details.language).toBe(1);
    expect(await saveProfile(services, user, { details: { ...details, city: "Round Rock", language: null } })).toBe(
      "saved",
    );
    expect((await loadProfile(services, user)).details).toMatchObject({ city: "Round Rock", language: 1 });
  });
});

describe("the same-first-name duplicate", () => {
  it("a new email with the mobile number of a guest of the same first name is told how to get into that record", async () => {
    const first = registration();
    expect((await services.accounts.register(first)).ok).toBe(true);
    const guests = () => (sandbox.db.prepare("SELECT COUNT(*) AS n FROM guests").get() as { n: number }).n;
    const before = guests();
    const again = await services.accounts.register({ ...registration(), firstName: " mía ", phone: first.phone });
    expect(again).toEqual({ ok: false, field: "phone", message: ACCOUNT_MESSAGES.sameFirstNameDuplicate });
    expect(again.ok ? "" : again.message).not.toContain(first.email);
    expect(guests()).toBe(before);
  });

  it("another first name on the same mobile number (a family phone) registers", async () => {
    const first = registration();
    expect((await services.accounts.register(first)).ok).toBe(true);
    expect((await services.accounts.register({ ...registration(), firstName: "Lena", phone: first.phone })).ok).toBe(
      true,
    );
  });
});

describe("the sign-in messages", () => {
  it("says which of the spec's messages applies: wrong password, no account", async () => {
    const account = registration();
    expect((await services.accounts.register(account)).ok).toBe(true);
    expect(await services.accounts.login(account.email, "Wrong!Skin2026")).toEqual({
      ok: false,
      field: "password",
      message: "Invalid password. Reset your password",
    });
    expect(await services.accounts.login(`nobody.${Date.now()}@example.com`, "Glow!Skin2026")).toEqual({
      ok: false,
      field: "email",
      message: "Account does not exist. Please create account",
    });
  });
});
