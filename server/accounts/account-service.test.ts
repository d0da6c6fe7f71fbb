import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Services } from "../services";
import { createSqliteStores } from "../store/sqlite-store.server";
import { createNoAnalytics } from "../analytics/analytics.server";
import { parseEnv } from "../env.server";
import { createAccountService } from "./account-service.server";

/** A hash as the earlier parameters (N=2^15) made it. */
function oldHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$32768$8$1$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

describe("sign-in with a hash from the earlier scrypt parameters", () => {
  it("signs in, and replaces the hash with one at today's cost, keeping the change date", async () => {
    const stores = createSqliteStores(":memory:");
    const accounts = createAccountService({
      env: parseEnv({ NODE_ENV: "test" }),
      stores,
      analytics: createNoAnalytics(),
    } as unknown as Services);
    await stores.accounts.create({
      id: "a1",
      email: "mia@example.com",
      guestId: "g1",
      centerId: "c1",
      passwordHash: oldHash("Glow!Skin2026"),
      createdAt: 1,
      passwordChangedAt: 2,
    });

    expect((await accounts.login("mia@example.com", "Wrong!Skin2026")).ok).toBe(false);
    expect((await stores.accounts.getByEmail("mia@example.com"))!.passwordHash).toMatch(/^scrypt\$32768\$/);

    expect((await accounts.login("mia@example.com", "Glow!Skin2026")).ok).toBe(true);
    const upgraded = (await stores.accounts.getByEmail("mia@example.com"))!;
    expect(upgraded.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(upgraded.passwordChangedAt).toBe(2);
    expect((await accounts.login("mia@example.com", "Glow!Skin2026")).ok).toBe(true);
    await stores.close();
  });
});
