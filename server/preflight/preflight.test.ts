import { describe, expect, it } from "vitest";
import { startSandbox, TEST_API_KEY } from "../../tests/helpers/sandbox-server";
import { parseEnv } from "../env.server";
import { SANDBOX_PROFILE, STRICT_PROFILE, type TenantProfile } from "../spa-sandbox/tenant-profiles";
import { formatPreflight, runPreflight, type PreflightRow } from "./preflight.server";

/** The preflight (`npm run spa:check`) against a sandbox answering as one tenant profile. */
async function preflight(
  tenant: TenantProfile,
  settings: Record<string, string> = {},
  rateLimitPerMinute = 0,
): Promise<PreflightRow[]> {
  const sandbox = await startSandbox({
    tenant,
    rateLimitPerMinute,
    hostedPagesOnCallerOrigin: !tenant.hostedPageOrigin,
  });
  try {
    const env = parseEnv({ NODE_ENV: "test", ...settings });
    const origin = new URL(sandbox.baseUrl).origin;
    return await runPreflight({
      env,
      baseUrl: sandbox.baseUrl,
      auth: { type: "apikey", apiKey: TEST_API_KEY },
      hostedPaymentOrigins: env.HOSTED_PAYMENT_ORIGINS,
      embeddedHostedPath: "/api/hosted/",
      publicOrigin: origin,
    });
  } finally {
    await sandbox.stop();
  }
}

const blockers = (rows: PreflightRow[]) => rows.filter((row) => row.verdict === "blocker");
const row = (rows: PreflightRow[], check: string) => rows.find((r) => r.check === check);
const ZONE_IDS = "4=America/Los_Angeles,10=America/Denver,11=America/Chicago,15=America/Phoenix,20=America/New_York";

describe("npm run spa:check against each tenant profile", () => {
  it("the sandbox's own profile is ready, and says how guests are searched and cards listed", async () => {
    const rows = await preflight(SANDBOX_PROFILE);
    expect(blockers(rows)).toEqual([]);
    expect(row(rows, "guest search without center_id")?.verdict).toBe("ok");
    expect(row(rows, "saved-card list")?.detail).toMatch(/^\{ accounts: \[\.\.\.\] \}/);
    expect(row(rows, "clinic Glow Clinic Phoenix Biltmore")?.detail).toMatch(
      /^America\/Phoenix; Mon–Wed 09:00 – 19:00/,
    );
    expect(row(rows, "rate limit")?.verdict).toBe("warning");
    // The seeded catalog keeps the chain's enhancement rule (decision 045).
    expect(row(rows, "facial enhancement lengths")?.verdict).toBe("ok");
    expect(formatPreflight(rows)).toMatch(/Ready: no blocker/);
  });

  it("the strict profile without zone settings: every clinic a blocker naming what to set; the rest read", async () => {
    const rows = await preflight(STRICT_PROFILE, {}, 60);
    const clinics = blockers(rows).filter((r) => r.check.startsWith("clinic "));
    expect(clinics).toHaveLength(15);
    expect(row(rows, "clinic Glow Clinic Phoenix Biltmore")).toMatchObject({
      verdict: "blocker",
      fix: "SPA_TIME_ZONE_IDS=15=<IANA zone>",
    });
    expect(blockers(rows).filter((r) => !r.check.startsWith("clinic "))).toEqual([]);
    expect(row(rows, "guest search without center_id")?.verdict).toBe("warning");
    expect(row(rows, "guest search with center_id")?.verdict).toBe("ok");
    expect(row(rows, "saved-card list")?.detail).toMatch(/^a bare array/);
    expect(row(rows, "rate limit")).toMatchObject({ verdict: "ok", detail: expect.stringContaining("60;w=60;b=60") });
    expect(formatPreflight(rows)).toMatch(/Not ready: 15 blockers/);
  });

  it("the strict profile with its zone ids set is ready; searching across centers there is a blocker", async () => {
    expect(blockers(await preflight(STRICT_PROFILE, { SPA_TIME_ZONE_IDS: ZONE_IDS }))).toEqual([]);
    const across = await preflight(STRICT_PROFILE, { SPA_TIME_ZONE_IDS: ZONE_IDS, SPA_GUEST_SEARCH: "across-centers" });
    expect(blockers(across)).toEqual([
      expect.objectContaining({ check: "guest search setting", fix: "SPA_GUEST_SEARCH=per-center (or auto)" }),
    ]);
  });

  it("a hosted card page on the organisation's own host is a blocker until its origin is allowed", async () => {
    const organisationHost = { ...STRICT_PROFILE, hostedPageOrigin: "https://glowclinic.zenoti.com" };
    const refused = await preflight(organisationHost, { SPA_TIME_ZONE_IDS: ZONE_IDS });
    expect(blockers(refused)).toEqual([
      expect.objectContaining({
        check: "hosted card page",
        detail: expect.stringContaining("https://glowclinic.zenoti.com"),
        fix: "HOSTED_PAYMENT_ORIGINS=https://glowclinic.zenoti.com",
      }),
    ]);
    expect(
      blockers(
        await preflight(organisationHost, {
          SPA_TIME_ZONE_IDS: ZONE_IDS,
          HOSTED_PAYMENT_ORIGINS: "https://glowclinic.zenoti.com",
        }),
      ),
    ).toEqual([]);
  });
});
