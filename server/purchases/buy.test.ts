import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PURCHASE_MESSAGES } from "~/domain/purchases";
import { formatMoney } from "~/lib/money";
import { createTestGuest, startSandbox, TEST_API_KEY, type TestSandbox } from "../../tests/helpers/sandbox-server";
import { seededServices } from "../../tests/helpers/seeded-services";
import type { Services } from "../services";
import { normalizeId, seedGuid } from "../spa-sandbox/db";
import { createSpaClient, type SpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Stores } from "../store/stores.server";
import { buyItem } from "./buy.server";
import { findItemOffer } from "./offers.server";

/** "Buy" on a membership plan or a package, as typed outcomes the pages say over HTTP. */

const AUSTIN = seedGuid("center:ATX");
const FACIAL_SERIES = seedGuid("package:PKG-FACIAL-3");

let sandbox: TestSandbox;
let spa: SpaClient;
let stores: Stores;
let services: Services;
let origin: string;
let slug: string;

beforeAll(async () => {
  sandbox = await startSandbox({ hostedPagesOnCallerOrigin: true });
  origin = new URL(sandbox.baseUrl).origin;
  spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  stores = createSqliteStores(":memory:");
  services = await seededServices(spa, stores, {
    hostedPaymentOrigins: [],
    embeddedHostedPath: `${new URL(sandbox.baseUrl).pathname}/hosted/`,
  });
  slug = (await spa.listCenters()).centers.find((c) => normalizeId(c.id) === normalizeId(AUSTIN))!.slug;
});
afterAll(async () => {
  await sandbox.stop();
  await stores.close();
});

async function buyer() {
  return {
    id: randomUUID(),
    email: "pat@example.com",
    centerId: AUSTIN,
    guestId: await createTestGuest(spa, AUSTIN, "Pat", "Buyer"),
  };
}

async function seriesPrice(): Promise<number> {
  const center = (await services.catalog.getCenter(AUSTIN))!;
  return (await findItemOffer(services, "package", center, FACIAL_SERIES))!.priceCents;
}

const buyPackage = async (
  user: Awaited<ReturnType<typeof buyer>> | null,
  form: Partial<{ clinic: string; itemId: string; price: number }> = {},
) =>
  buyItem(services, {
    kind: "package",
    user,
    form: { clinic: slug, itemId: FACIAL_SERIES, price: await seriesPrice(), purchaseKey: randomUUID(), ...form },
    origin,
  });

describe("buying a package", () => {
  it("asks a visitor to sign in first", async () => {
    expect(await buyPackage(null)).toEqual({ kind: "sign-in" });
  });

  it("refuses a clinic or an item nobody sells with 404, next to the clinic or on the form", async () => {
    const user = await buyer();
    expect(await buyPackage(user, { clinic: "nowhere" })).toMatchObject({
      kind: "refused",
      status: 404,
      fieldErrors: { clinic: [expect.any(String)] },
    });
    expect(await buyPackage(user, { itemId: seedGuid("package:NO-SUCH") })).toEqual({
      kind: "refused",
      status: 404,
      formErrors: [PURCHASE_MESSAGES.notSold],
    });
  });

  it("refuses a price that is not the clinic's current one with 409, saying the current one", async () => {
    const price = await seriesPrice();
    expect(await buyPackage(await buyer(), { price: price + 100 })).toEqual({
      kind: "refused",
      status: 409,
      formErrors: [PURCHASE_MESSAGES.priceChanged(formatMoney(price))],
    });
  });

  it("starts the purchase at the shown price: the back end's hosted card page is its first step", async () => {
    const outcome = await buyPackage(await buyer());
    expect(outcome).toMatchObject({
      kind: "step",
      step: { kind: "redirect", uri: expect.stringContaining("/hosted/") },
    });
  });
});
