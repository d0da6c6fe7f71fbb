import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Center, Service } from "~/domain/catalog";
import { startSandbox, TEST_API_KEY, type TestSandbox } from "../../tests/helpers/sandbox-server";
import { seededServices } from "../../tests/helpers/seeded-services";
import { createMemoryRateLimiter, type RateLimiter } from "../accounts/rate-limit.server";
import type { Services } from "../services";
import { seedGuid } from "../spa-sandbox/db";
import { createSpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Stores } from "../store/stores.server";
import { bookingLinkOf, draftFromLink, linkQuery } from "./booking-link.server";
import type { Draft } from "./draft.server";
import { createLinkSigner } from "./sms-link.server";

/** A booking link read by a page changes nothing; the POST that takes it on keeps it (decision 051). */

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-NEW");

let sandbox: TestSandbox;
let stores: Stores;
let services: Services;
let center: Center;
let catalog: Service[];
/** Every counter and claim the use case touches. */
const touched: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => Date.parse("2026-11-30T15:00:00Z") });
  const spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  stores = createSqliteStores(":memory:");
  const limiter = createMemoryRateLimiter();
  const watched: RateLimiter = {
    ...limiter,
    hit: (key, ...rest) => (touched.push(`hit ${key.split(":")[0]}`), limiter.hit(key, ...rest)),
    release: (key, member) => (touched.push(`release ${member}`), limiter.release(key, member)),
  };
  services = await seededServices(spa, stores, {
    rateLimiter: watched,
    linkSigner: createLinkSigner(["a-secret-long-enough-for-tests-0123456789"]),
  });
  center = (await services.catalog.getCenter(AUSTIN))!;
  catalog = (await services.catalog.listServices(AUSTIN))!;
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
});

const held: Draft = {
  centerId: AUSTIN,
  serviceId: seedGuid("service:PEEL"),
  addOnIds: [],
  therapistId: null,
  hold: {
    bookingId: "b-1",
    slot: "2026-12-01T10:00:00",
    reservationId: "r-1",
    expiresAt: "2026-12-01T16:00:00Z",
    claim: { key: "holds:203.0.113.5", id: "claim-1" },
  },
};

const linkTo = (params: string) =>
  bookingLinkOf(new URL(`http://shop.example/appointment/service?id=${AUSTIN}${params}`));

describe("a booking link", () => {
  it("is read from the address only when it fills something in, and carried without what a page names itself", () => {
    expect(bookingLinkOf(new URL(`http://shop.example/appointment/service?id=${AUSTIN}&choose=x`))).toBeNull();
    const link = linkTo(`&service=${FACIAL}&date=2026-12-01&promo=glow50&utm=x`);
    expect(link).toEqual({ centerId: AUSTIN, service: FACIAL, date: "2026-12-01", promo: "glow50" });
    expect(linkQuery(link, ["date"])).toBe(`&id=${AUSTIN}&service=${FACIAL}&promo=glow50`);
    expect(linkQuery(link, ["id", "service"])).toBe("&date=2026-12-01&promo=glow50");
    expect(linkQuery(null)).toBe("");
  });

  it("shown by a page, fills in the choices and lets go of nothing, trying no code", async () => {
    touched.length = 0;
    const link = linkTo(`&service=${FACIAL}&date=2026-12-01&promo=glow50`);
    const shown = await draftFromLink(services, {
      center,
      catalog,
      kept: held,
      link,
      user: null,
      clientIp: "203.0.113.5",
      keep: false,
    });
    expect(shown.draft).toMatchObject({ serviceId: FACIAL, date: "2026-12-01", hold: undefined });
    expect(shown.draft.promoCode).toBeUndefined();
    expect(shown.choiceChanged).toBe(true);
    expect(touched).toEqual([]);
  });

  it("kept by a POST, lets go of the hold it makes stale and tries the code once", async () => {
    touched.length = 0;
    const link = linkTo(`&service=${FACIAL}&promo=glow50`);
    const kept = await draftFromLink(services, {
      center,
      catalog,
      kept: held,
      link,
      user: null,
      clientIp: "203.0.113.5",
      keep: true,
    });
    expect(kept.draft).toMatchObject({ serviceId: FACIAL, promoCode: "GLOW50", hold: undefined });
    expect(touched).toEqual(["hit promo-ip", "release claim-1"]);
  });

  it("that changes no choice keeps the hold, kept or shown", async () => {
    touched.length = 0;
    const same = await draftFromLink(services, {
      center,
      catalog,
      kept: held,
      link: linkTo("&date=2026-12-02"),
      user: null,
      clientIp: "203.0.113.5",
      keep: true,
    });
    expect(same.draft).toMatchObject({ hold: held.hold, date: "2026-12-02" });
    expect(touched).toEqual([]);
  });
});
