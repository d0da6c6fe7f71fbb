import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { captureWarnings } from "../../tests/helpers/log-lines";
import { createTestGuest, startSandbox, TEST_API_KEY, type TestSandbox } from "../../tests/helpers/sandbox-server";
import { createServices } from "../compose.server";
import type { Services } from "../services";
import { EMBEDDED_AVAILABILITY_GUEST_ID } from "../embedded-defaults";
import { parseEnv } from "../env.server";
import { seedGuid } from "../spa-sandbox/db";
import { SEED_AVAILABILITY_GUEST } from "../spa-sandbox/seed-data";
import { STRICT_PROFILE } from "../spa-sandbox/tenant-profiles";
import { createSpaClient, type SpaClientOptions } from "./client.server";

/**
 * Finding a guest (decision 035): the organisation's "Search Guest Across Centers" setting, and the
 * availability guest no visitor may ever be matched to.
 */

const AUSTIN = seedGuid("center:ATX");
const DALLAS = seedGuid("center:DAL");

describe("the availability guest is never found for a visitor", () => {
  let sandbox: TestSandbox;
  let services: Services;
  let dataDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    dataDir = mkdtempSync(path.join(tmpdir(), "guest-search-"));
    services = await createServices(
      parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir, SANDBOX_API_KEY: TEST_API_KEY, ANALYTICS: "off" }),
      { sandboxBaseUrl: sandbox.baseUrl },
    );
  });
  afterAll(async () => {
    await services.catalog.close();
    await services.analytics.close(100);
    await sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("whatever the visitor types: its mobile or its email", async () => {
    // A client without the setting finds it: the sandbox's internal guest has 512-555-0100.
    const bare = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
    expect((await bare.findGuestsByPhone(SEED_AVAILABILITY_GUEST.phone)).map((g) => g.id)).toEqual([
      EMBEDDED_AVAILABILITY_GUEST_ID,
    ]);
    // The app's client, as the app wires it, does not.
    expect(await services.spa.findGuestsByPhone("(512) 555-0100", AUSTIN)).toEqual([]);
    expect(await services.spa.findGuestsByPhone(SEED_AVAILABILITY_GUEST.phone)).toEqual([]);
    expect(await services.spa.findGuestsByEmail(SEED_AVAILABILITY_GUEST.email)).toEqual([]);
  });
});

describe("guest search across centers, or per center", () => {
  let sandbox: TestSandbox;
  let austinGuest: { id: string; email: string };

  const clientWith = (guestSearch: SpaClientOptions["guestSearch"]) =>
    createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      guestSearch: { centerIds: async () => [DALLAS, AUSTIN], ...guestSearch },
    });

  beforeAll(async () => {
    // An organisation with "Search Guest Across Centers" off.
    sandbox = await startSandbox({ tenant: STRICT_PROFILE });
    const writer = createSpaClient({
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      guestSearch: { scope: "per-center" },
    });
    const id = await createTestGuest(writer, AUSTIN, "Nadia", "Search");
    austinGuest = { id, email: (await writer.getGuest(id))!.email! };
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  it("across centers is refused by such an organisation: every details step would fail", async () => {
    await expect(
      clientWith({ scope: "across-centers" }).findGuestsByEmail(austinGuest.email, AUSTIN),
    ).rejects.toMatchObject({ kind: "rejected" });
  });

  it("auto finds the guest at the visitor's clinic once across centers is refused, and searches per center from then on", async () => {
    const warnings = captureWarnings();
    const client = clientWith({ scope: "auto" });
    expect((await client.findGuestsByEmail(austinGuest.email, AUSTIN)).map((g) => g.id)).toEqual([austinGuest.id]);
    expect(client.guestSearchScope()).toBe("per-center");
    expect(warnings).toContainEqual(
      expect.objectContaining({
        message: expect.stringContaining("searching per center"),
        fix: "set SPA_GUEST_SEARCH=per-center",
      }),
    );
    vi.restoreAllMocks();
    // Per center, the guest of another clinic is not that clinic's.
    expect(await client.findGuestsByEmail(austinGuest.email, DALLAS)).toEqual([]);
  });

  it("per center without a clinic (a sign-in, a password reset) looks at each clinic in turn", async () => {
    const calls = sandbox.callCount();
    expect((await clientWith({ scope: "per-center" }).findGuestsByEmail(austinGuest.email)).map((g) => g.id)).toEqual([
      austinGuest.id,
    ]);
    expect(sandbox.callCount() - calls).toBe(2);
  });

  it("an organisation with the setting on is searched across centers in one call", async () => {
    const open = await startSandbox();
    try {
      const client = createSpaClient({ baseUrl: open.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
      const id = await createTestGuest(client, DALLAS, "Omar", "Across");
      const email = (await client.getGuest(id))!.email!;
      const calls = open.callCount();
      expect((await client.findGuestsByEmail(email, AUSTIN)).map((g) => g.id)).toEqual([id]);
      expect(open.callCount() - calls).toBe(1);
      expect(client.guestSearchScope()).toBe("auto");
    } finally {
      await open.stop();
    }
  });
});
