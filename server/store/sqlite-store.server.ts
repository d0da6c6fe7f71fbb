import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import type { PromoCode } from "~/domain/discounts";
import {
  emailKey,
  IDEMPOTENCY_STALE_MS,
  type IdempotencyClaim,
  type CenterPrice,
  type DocumentStore,
  type GuestDetails,
  type ImpactAffiliateDetails,
  type PartnerPricing,
} from "./document-store.server";

const migrations: string[] = [
  `CREATE TABLE guest_details (
     email_key TEXT PRIMARY KEY, email TEXT NOT NULL, guest_id TEXT NOT NULL,
     is_password_set INTEGER NOT NULL, is_return_user INTEGER NOT NULL, promo_codes TEXT NOT NULL DEFAULT '{}'
   );
   CREATE TABLE center_pricing (
     center_id TEXT NOT NULL, service_id TEXT NOT NULL, price REAL NOT NULL, is_prepaid_service INTEGER NOT NULL,
     PRIMARY KEY (center_id, service_id)
   );
   CREATE TABLE partner_pricing (partner_type TEXT PRIMARY KEY, prices TEXT NOT NULL);
   CREATE TABLE impact_affiliate_details (
     user_id TEXT PRIMARY KEY, user_email TEXT NOT NULL, irclickid TEXT NOT NULL, timestamp INTEGER NOT NULL,
     is_ft_treated_triggered INTEGER NOT NULL DEFAULT 0, is_expired INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE add_on_lhr_prices (service_id TEXT PRIMARY KEY, price REAL NOT NULL);`,
  `CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, claimed_at INTEGER NOT NULL, result TEXT);
   CREATE TABLE promo_codes (code TEXT PRIMARY KEY, promo TEXT NOT NULL);`,
];

type GuestRow = { email: string; guest_id: string; is_password_set: number; is_return_user: number; promo_codes: string };
type AffiliateRow = {
  user_id: string; user_email: string; irclickid: string; timestamp: number;
  is_ft_treated_triggered: number; is_expired: number;
};

function toGuest(row: GuestRow): GuestDetails {
  return {
    email: row.email,
    guest_id: row.guest_id,
    is_password_set: row.is_password_set === 1,
    is_return_user: row.is_return_user === 1,
    promo_codes: JSON.parse(row.promo_codes) as Record<string, number>,
  };
}

function toAffiliate(row: AffiliateRow): ImpactAffiliateDetails {
  return {
    user_id: row.user_id,
    user_email: row.user_email,
    irclickid: row.irclickid,
    timestamp: row.timestamp,
    isFtTreatedTriggered: row.is_ft_treated_triggered === 1,
    isExpired: row.is_expired === 1,
  };
}

/** The embedded document store: one SQLite file, one table per collection. */
export function createSqliteStore(file: string): DocumentStore {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  const version = db.pragma("user_version", { simple: true }) as number;
  for (let i = version; i < migrations.length; i++) {
    db.transaction(() => {
      db.exec(migrations[i]);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }

  const selectGuest = db.prepare("SELECT * FROM guest_details WHERE email_key = ?");
  const adjustPromo = db.transaction((key: string, code: string, delta: number): number => {
    const row = selectGuest.get(key) as GuestRow | undefined;
    if (!row) throw new Error("guestDetails record not found");
    const codes = JSON.parse(row.promo_codes) as Record<string, number>;
    const next = Math.max(0, (codes[code] ?? 0) + delta);
    codes[code] = next;
    db.prepare("UPDATE guest_details SET promo_codes = ? WHERE email_key = ?").run(JSON.stringify(codes), key);
    return next;
  });
  const recordClick = db.transaction(
    (details: { user_id: string; user_email: string; irclickid: string; timestamp: number }): AffiliateRow => {
      const existing = db.prepare("SELECT * FROM impact_affiliate_details WHERE user_id = ?").get(details.user_id) as AffiliateRow | undefined;
      if (!existing) {
        db.prepare(
          "INSERT INTO impact_affiliate_details (user_id, user_email, irclickid, timestamp) VALUES (?, ?, ?, ?)",
        ).run(details.user_id, details.user_email, details.irclickid, details.timestamp);
      } else if (existing.irclickid !== details.irclickid) {
        db.prepare("UPDATE impact_affiliate_details SET irclickid = ?, timestamp = ? WHERE user_id = ?").run(
          details.irclickid, details.timestamp, details.user_id,
        );
      }
      return db.prepare("SELECT * FROM impact_affiliate_details WHERE user_id = ?").get(details.user_id) as AffiliateRow;
    },
  );

  const claim = db.transaction((key: string, now: number): IdempotencyClaim => {
    const row = db.prepare("SELECT * FROM idempotency_keys WHERE key = ?").get(key) as { claimed_at: number; result: string | null } | undefined;
    if (row?.result) return { state: "done", result: JSON.parse(row.result) };
    if (row && now - row.claimed_at < IDEMPOTENCY_STALE_MS) return { state: "pending" };
    db.prepare("INSERT INTO idempotency_keys (key, claimed_at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET claimed_at = excluded.claimed_at").run(key, now);
    return { state: "claimed" };
  });

  return {
    kind: "sqlite",

    async getGuestDetails(email) {
      const row = selectGuest.get(emailKey(email)) as GuestRow | undefined;
      return row ? toGuest(row) : null;
    },
    async createGuestDetails(details) {
      db.prepare(
        `INSERT INTO guest_details (email_key, email, guest_id, is_password_set, is_return_user, promo_codes)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(
        emailKey(details.email), details.email.trim(), details.guest_id, details.is_password_set ? 1 : 0,
        details.is_return_user ? 1 : 0, JSON.stringify(details.promo_codes ?? {}),
      );
    },
    async updateGuestDetails(email, patch) {
      const sets: string[] = [];
      const values: number[] = [];
      if (patch.is_password_set !== undefined) {
        sets.push("is_password_set = ?");
        values.push(patch.is_password_set ? 1 : 0);
      }
      if (patch.is_return_user !== undefined) {
        sets.push("is_return_user = ?");
        values.push(patch.is_return_user ? 1 : 0);
      }
      if (sets.length === 0) return;
      const result = db.prepare(`UPDATE guest_details SET ${sets.join(", ")} WHERE email_key = ?`).run(...values, emailKey(email));
      if (result.changes === 0) throw new Error("guestDetails record not found");
    },
    async adjustPromoCodeCount(email, code, delta) {
      return adjustPromo(emailKey(email), code, delta);
    },

    async getCenterPricing(centerId, serviceIds) {
      if (serviceIds.length === 0) return [];
      const placeholders = serviceIds.map(() => "?").join(",");
      const rows = db
        .prepare(`SELECT * FROM center_pricing WHERE center_id = ? AND service_id IN (${placeholders})`)
        .all(centerId, ...serviceIds) as { center_id: string; service_id: string; price: number; is_prepaid_service: number }[];
      return rows.map((r) => ({ centerId: r.center_id, serviceId: r.service_id, price: r.price, isPrepaidService: r.is_prepaid_service === 1 }));
    },
    async putCenterPrice(price: CenterPrice) {
      db.prepare(
        `INSERT INTO center_pricing (center_id, service_id, price, is_prepaid_service) VALUES (?, ?, ?, ?)
         ON CONFLICT (center_id, service_id) DO UPDATE SET price = excluded.price, is_prepaid_service = excluded.is_prepaid_service`,
      ).run(price.centerId, price.serviceId, price.price, price.isPrepaidService ? 1 : 0);
    },

    async getPartnerPricing(partnerType) {
      const row = db.prepare("SELECT * FROM partner_pricing WHERE partner_type = ?").get(partnerType.toUpperCase()) as
        | { partner_type: string; prices: string }
        | undefined;
      return row ? { partnerType: row.partner_type, prices: JSON.parse(row.prices) } : null;
    },
    async putPartnerPricing(pricing: PartnerPricing) {
      db.prepare(
        "INSERT INTO partner_pricing (partner_type, prices) VALUES (?, ?) ON CONFLICT (partner_type) DO UPDATE SET prices = excluded.prices",
      ).run(pricing.partnerType.toUpperCase(), JSON.stringify(pricing.prices));
    },

    async getAffiliateDetails(userId) {
      const row = db.prepare("SELECT * FROM impact_affiliate_details WHERE user_id = ?").get(userId) as AffiliateRow | undefined;
      return row ? toAffiliate(row) : null;
    },
    async recordAffiliateClick(details) {
      return toAffiliate(recordClick(details));
    },

    async getAddOnLhrPrices(serviceIds) {
      if (serviceIds.length === 0) return {};
      const rows = db
        .prepare(`SELECT * FROM add_on_lhr_prices WHERE service_id IN (${serviceIds.map(() => "?").join(",")})`)
        .all(...serviceIds) as { service_id: string; price: number }[];
      return Object.fromEntries(rows.map((r) => [r.service_id, r.price]));
    },
    async putAddOnLhrPrice(serviceId, price) {
      db.prepare(
        "INSERT INTO add_on_lhr_prices (service_id, price) VALUES (?, ?) ON CONFLICT (service_id) DO UPDATE SET price = excluded.price",
      ).run(serviceId, price);
    },

    async claimIdempotencyKey(key, now) {
      return claim.immediate(key, now);
    },
    async completeIdempotencyKey(key, result) {
      db.prepare("UPDATE idempotency_keys SET result = ? WHERE key = ?").run(JSON.stringify(result), key);
    },
    async releaseIdempotencyKey(key) {
      db.prepare("DELETE FROM idempotency_keys WHERE key = ? AND result IS NULL").run(key);
    },

    async getPromoCode(code) {
      const row = db.prepare("SELECT promo FROM promo_codes WHERE code = ?").get(code.trim().toUpperCase()) as { promo: string } | undefined;
      return row ? (JSON.parse(row.promo) as PromoCode) : null;
    },
    async putPromoCode(promo) {
      db.prepare("INSERT INTO promo_codes (code, promo) VALUES (?, ?) ON CONFLICT (code) DO UPDATE SET promo = excluded.promo").run(
        promo.code.toUpperCase(), JSON.stringify({ ...promo, code: promo.code.toUpperCase() }),
      );
    },

    async close() {
      db.close();
    },
  };
}
