import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteStores } from "./sqlite-store.server";
import { describeStoreContract } from "./store-contract";

describeStoreContract("SQLite", () => createSqliteStores(":memory:"));

/** Runs a test in a directory of its own for store files, removed afterwards. */
async function inStoreDirectory(test: (dir: string) => Promise<void>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-"));
  try {
    await test(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("persistence", () => {
  it("keeps records in the SQLite file across reopening", () =>
    inStoreDirectory(async (dir) => {
      const file = path.join(dir, "nested", "store.sqlite");
      const first = createSqliteStores(file);
      await first.guestDetails.create({
        email: "ana@example.com",
        guest_id: "g-1",
        is_password_set: false,
        is_return_user: false,
      });
      await first.close();
      const second = createSqliteStores(file);
      expect(await second.guestDetails.get("ana@example.com")).toMatchObject({ guest_id: "g-1" });
      await second.close();
    }));
});

describe("money in cents", () => {
  it("converts the dollars an older store file kept to cents when it opens it", () =>
    inStoreDirectory(async (dir) => {
      const file = path.join(dir, "store.sqlite");
      await createSqliteStores(file).close();
      // The file as it was before amounts were kept in cents.
      const old = new Database(file);
      old.exec(`DROP TABLE center_pricing;
        CREATE TABLE center_pricing (center_id TEXT NOT NULL, service_id TEXT NOT NULL, price REAL NOT NULL, is_prepaid_service INTEGER NOT NULL, PRIMARY KEY (center_id, service_id));
        DROP TABLE add_on_lhr_prices;
        CREATE TABLE add_on_lhr_prices (service_id TEXT PRIMARY KEY, price REAL NOT NULL);
        ALTER TABLE accounts DROP COLUMN referral_code;
        DROP TABLE visit_revisions;
        DROP TABLE purchases;
        DROP TABLE referral_codes;
        DROP TABLE referrals;
        ALTER TABLE impact_affiliate_details DROP COLUMN checked_at;
        ALTER TABLE partner_pricing DROP COLUMN name;
        DROP TABLE pricing_tiers;
        DROP TABLE waitlist_entries;
        DROP TABLE waitlist_signals;
        DROP TABLE job_leases;`);
      old.prepare("INSERT INTO center_pricing VALUES (?, ?, ?, ?)").run("c-1", "s-1", 19.99, 1);
      old.prepare("INSERT INTO add_on_lhr_prices VALUES (?, ?)").run("a-1", 59.5);
      old.prepare("INSERT INTO partner_pricing VALUES (?, ?)").run("GROUPON", JSON.stringify({ s1: 49.99, s2: 275 }));
      const rules = [
        { discount_type: "final_price", discount_value: 50, service_id: "s-1", service_type: "service" },
        { discount_type: "amount", discount_value: 0.3, service_id: null, service_type: "addon-service" },
        { discount_type: "percentage", discount_value: 10, service_id: null, service_type: "service" },
      ];
      old
        .prepare("INSERT INTO promo_codes VALUES (?, ?)")
        .run("GLOW50", JSON.stringify({ code: "GLOW50", rules, validFrom: null, validTo: null, maxUsesPerGuest: 1 }));
      old.pragma("user_version = 4");
      old.close();

      const reopened = createSqliteStores(file);
      try {
        expect(await reopened.centerPricing.get("c-1", ["s-1"])).toEqual([
          { centerId: "c-1", serviceId: "s-1", price: 1999, isPrepaidService: true },
        ]);
        expect((await reopened.promoCodes.get("GLOW50"))?.rules.map((r) => r.discount_value)).toEqual([5000, 30, 10]);
        // A partner written before partners had names is shown under its type.
        expect(await reopened.pricing.partner("groupon")).toEqual({
          partnerType: "GROUPON",
          name: "GROUPON",
          prices: [
            { serviceId: "s1", price: 4999 },
            { serviceId: "s2", price: 27500 },
          ],
        });
        expect(await reopened.pricing.addOnPrices(["a-1"])).toEqual([{ serviceId: "a-1", price: 5950 }]);
      } finally {
        await reopened.close();
      }
      // The columns say the unit.
      const migrated = new Database(file, { readonly: true });
      try {
        expect(migrated.prepare("SELECT price_cents FROM add_on_lhr_prices WHERE service_id = 'a-1'").get()).toEqual({
          price_cents: 5950,
        });
        expect(
          JSON.parse((migrated.prepare("SELECT prices FROM partner_pricing").get() as { prices: string }).prices),
        ).toEqual({ s1: 4999, s2: 27500 });
      } finally {
        migrated.close();
      }
    }));
});

describe("the reward credits of an older store file", () => {
  it("counts the rewards made before credits were noted as sent, and the others as not rewarded yet", () =>
    inStoreDirectory(async (dir) => {
      const file = path.join(dir, "store.sqlite");
      await createSqliteStores(file).close();
      const old = new Database(file);
      const version = old.pragma("user_version", { simple: true }) as number;
      // As it was before the credit columns, and the code index, the recovery table (its migration runs
      // again harmlessly on a file that has it) and the waitlist after them: four migrations back.
      old.exec(
        "DROP TABLE waitlist_entries; DROP TABLE waitlist_signals; DROP TABLE job_leases; DROP TABLE booking_recoveries; DROP INDEX referrals_code; DROP INDEX referrals_uncredited; ALTER TABLE referrals DROP COLUMN credit_sent_at; ALTER TABLE referrals DROP COLUMN credit_tried_at;",
      );
      const insert = old.prepare(
        `INSERT INTO referrals (email_key, friend_email, friend_first_name, friend_guest_id, code, referrer_account_id, referrer_guest_id, created_at, state, checked_at, reward_points, rewarded_at, visit_id)
         VALUES (?, ?, 'Bo', ?, 'MIA-X1', 'a-1', 'g-a-1', 100, ?, NULL, ?, ?, ?)`,
      );
      insert.run("paid@example.com", "paid@example.com", "g-p", "rewarded", 5000, 400, "v-1");
      insert.run("waiting@example.com", "waiting@example.com", "g-w", "registered", 0, null, null);
      old.pragma(`user_version = ${version - 4}`);
      old.close();

      const reopened = createSqliteStores(file);
      try {
        expect((await reopened.referrals.forFriend("paid@example.com"))?.creditSentAt).toBe(400);
        expect((await reopened.referrals.forFriend("waiting@example.com"))?.creditSentAt).toBeNull();
        expect(await reopened.referrals.listUncredited(10_000, 10)).toEqual([]);
      } finally {
        await reopened.close();
      }
    }));
});
