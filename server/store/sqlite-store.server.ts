import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { ruleFromDollars, type PromoCode } from "~/domain/discounts";
import { centsFromDollars } from "~/domain/money";
import {
  DuplicateAccountError,
  emailKey,
  decideClaim,
  FINAL_ATTEMPT_STATES,
  type AccountRecord,
  type PaymentAttempt,
  type PaymentAttemptClaim,
  type OneTimeCodeRecord,
  type UserSessionRecord,
  type CenterPrice,
  type DocumentStore,
  type GuestDetails,
  type ImpactAffiliateDetails,
  type PartnerPricing,
} from "./document-store.server";

type Migration = string | ((db: Database.Database) => void);

const migrations: Migration[] = [
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
  `CREATE TABLE accounts (
     id TEXT PRIMARY KEY, email_key TEXT NOT NULL UNIQUE, email TEXT NOT NULL, guest_id TEXT NOT NULL,
     center_id TEXT NOT NULL, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL, password_changed_at INTEGER NOT NULL
   );
   CREATE TABLE user_sessions (
     token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
     revoked INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX user_sessions_user ON user_sessions(user_id);
   CREATE TABLE one_time_codes (
     email_key TEXT PRIMARY KEY, email TEXT NOT NULL, code_hash TEXT NOT NULL, expires_at INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0, sent_at INTEGER NOT NULL
   );`,
  `CREATE TABLE payment_attempts (
     key TEXT PRIMARY KEY, state TEXT NOT NULL, lease_until INTEGER NOT NULL, updated_at INTEGER NOT NULL, data TEXT NOT NULL
   );
   CREATE INDEX payment_attempts_open ON payment_attempts(state, updated_at);
   DROP TABLE idempotency_keys;`,
  // Money is kept in cents (docs/decisions/011); the columns say so, and stored dollars are converted.
  `CREATE TABLE center_pricing_cents (
     center_id TEXT NOT NULL, service_id TEXT NOT NULL, price_cents INTEGER NOT NULL, is_prepaid_service INTEGER NOT NULL,
     PRIMARY KEY (center_id, service_id)
   );
   INSERT INTO center_pricing_cents SELECT center_id, service_id, CAST(ROUND(price * 100) AS INTEGER), is_prepaid_service FROM center_pricing;
   DROP TABLE center_pricing;
   ALTER TABLE center_pricing_cents RENAME TO center_pricing;
   CREATE TABLE add_on_lhr_prices_cents (service_id TEXT PRIMARY KEY, price_cents INTEGER NOT NULL);
   INSERT INTO add_on_lhr_prices_cents SELECT service_id, CAST(ROUND(price * 100) AS INTEGER) FROM add_on_lhr_prices;
   DROP TABLE add_on_lhr_prices;
   ALTER TABLE add_on_lhr_prices_cents RENAME TO add_on_lhr_prices;`,
  (db) => {
    for (const row of db.prepare("SELECT partner_type, prices FROM partner_pricing").all() as { partner_type: string; prices: string }[]) {
      const prices = Object.fromEntries(Object.entries(JSON.parse(row.prices) as Record<string, number>).map(([id, dollars]) => [id, centsFromDollars(dollars)]));
      db.prepare("UPDATE partner_pricing SET prices = ? WHERE partner_type = ?").run(JSON.stringify(prices), row.partner_type);
    }
    for (const row of db.prepare("SELECT code, promo FROM promo_codes").all() as { code: string; promo: string }[]) {
      const promo = JSON.parse(row.promo) as PromoCode;
      db.prepare("UPDATE promo_codes SET promo = ? WHERE code = ?").run(JSON.stringify({ ...promo, rules: promo.rules.map(ruleFromDollars) }), row.code);
    }
  },
];

type GuestRow = { email: string; guest_id: string; is_password_set: number; is_return_user: number; promo_codes: string };
type AffiliateRow = {
  user_id: string; user_email: string; irclickid: string; timestamp: number;
  is_ft_treated_triggered: number; is_expired: number;
};

type AccountRow = { id: string; email: string; guest_id: string; center_id: string; password_hash: string; created_at: number; password_changed_at: number };

function toAccount(row: AccountRow): AccountRecord {
  return { id: row.id, email: row.email, guestId: row.guest_id, centerId: row.center_id, passwordHash: row.password_hash, createdAt: row.created_at, passwordChangedAt: row.password_changed_at };
}

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
      const migration = migrations[i];
      if (typeof migration === "string") db.exec(migration);
      else migration(db);
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

  const claimPromo = db.transaction((input: { email: string; guestId: string; code: string; maxUses: number | null }): boolean => {
    const key = emailKey(input.email);
    const row = selectGuest.get(key) as GuestRow | undefined;
    const codes = row ? (JSON.parse(row.promo_codes) as Record<string, number>) : {};
    const used = codes[input.code] ?? 0;
    if (input.maxUses !== null && used >= input.maxUses) return false;
    codes[input.code] = used + 1;
    if (row) db.prepare("UPDATE guest_details SET promo_codes = ? WHERE email_key = ?").run(JSON.stringify(codes), key);
    else {
      db.prepare("INSERT INTO guest_details (email_key, email, guest_id, is_password_set, is_return_user, promo_codes) VALUES (?, ?, ?, 0, 0, ?)").run(
        key, input.email.trim(), input.guestId, JSON.stringify(codes),
      );
    }
    return true;
  });

  const selectAttempt = db.prepare("SELECT data FROM payment_attempts WHERE key = ?");
  const writeAttempt = db.prepare(
    `INSERT INTO payment_attempts (key, state, lease_until, updated_at, data) VALUES (@key, @state, @leaseUntil, @updatedAt, @data)
     ON CONFLICT (key) DO UPDATE SET state = excluded.state, lease_until = excluded.lease_until, updated_at = excluded.updated_at, data = excluded.data`,
  );
  const readAttempt = (key: string) => {
    const row = selectAttempt.get(key) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as PaymentAttempt) : null;
  };
  const saveAttempt = (attempt: PaymentAttempt) =>
    writeAttempt.run({ key: attempt.key, state: attempt.state, leaseUntil: attempt.leaseUntil, updatedAt: attempt.updatedAt, data: JSON.stringify(attempt) });
  const claimAttempt = db.transaction((fresh: PaymentAttempt, now: number): PaymentAttemptClaim => {
    const { write, ...claim } = decideClaim(readAttempt(fresh.key), fresh, now);
    if (write) saveAttempt(write);
    return claim;
  });
  const finalStates = FINAL_ATTEMPT_STATES.map((state) => `'${state}'`).join(", ");

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
        .all(centerId, ...serviceIds) as { center_id: string; service_id: string; price_cents: number; is_prepaid_service: number }[];
      return rows.map((r) => ({ centerId: r.center_id, serviceId: r.service_id, price: r.price_cents, isPrepaidService: r.is_prepaid_service === 1 }));
    },
    async putCenterPrice(price: CenterPrice) {
      db.prepare(
        `INSERT INTO center_pricing (center_id, service_id, price_cents, is_prepaid_service) VALUES (?, ?, ?, ?)
         ON CONFLICT (center_id, service_id) DO UPDATE SET price_cents = excluded.price_cents, is_prepaid_service = excluded.is_prepaid_service`,
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
        .all(...serviceIds) as { service_id: string; price_cents: number }[];
      return Object.fromEntries(rows.map((r) => [r.service_id, r.price_cents]));
    },
    async putAddOnLhrPrice(serviceId, price) {
      db.prepare(
        "INSERT INTO add_on_lhr_prices (service_id, price_cents) VALUES (?, ?) ON CONFLICT (service_id) DO UPDATE SET price_cents = excluded.price_cents",
      ).run(serviceId, price);
    },

    async claimPromoUse(input) {
      return claimPromo.immediate(input);
    },

    async claimPaymentAttempt(fresh, now) {
      return claimAttempt.immediate(fresh, now);
    },
    async savePaymentAttempt(attempt) {
      saveAttempt(attempt);
    },
    async getPaymentAttempt(key) {
      return readAttempt(key);
    },
    async listStalePaymentAttempts(now, idleBefore, limit) {
      const rows = db
        .prepare(`SELECT data FROM payment_attempts WHERE state NOT IN (${finalStates}) AND lease_until <= ? AND updated_at <= ? ORDER BY updated_at LIMIT ?`)
        .all(now, idleBefore, limit) as { data: string }[];
      return rows.map((row) => JSON.parse(row.data) as PaymentAttempt);
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

    async createAccount(account) {
      try {
        db.prepare(
          `INSERT INTO accounts (id, email_key, email, guest_id, center_id, password_hash, created_at, password_changed_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(account.id, emailKey(account.email), account.email.trim(), account.guestId, account.centerId, account.passwordHash, account.createdAt, account.passwordChangedAt);
      } catch (error) {
        if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" || (error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") throw new DuplicateAccountError();
        throw error;
      }
    },
    async getAccountByEmail(email) {
      const row = db.prepare("SELECT * FROM accounts WHERE email_key = ?").get(emailKey(email)) as AccountRow | undefined;
      return row ? toAccount(row) : null;
    },
    async getAccountById(id) {
      const row = db.prepare("SELECT * FROM accounts WHERE id = ?").get(id) as AccountRow | undefined;
      return row ? toAccount(row) : null;
    },
    async updateAccountPassword(id, passwordHash, changedAt) {
      db.prepare("UPDATE accounts SET password_hash = ?, password_changed_at = ? WHERE id = ?").run(passwordHash, changedAt, id);
    },

    async createUserSession(session) {
      db.prepare("INSERT INTO user_sessions (token_hash, user_id, created_at, expires_at, revoked) VALUES (?, ?, ?, ?, 0)").run(
        session.tokenHash, session.userId, session.createdAt, session.expiresAt,
      );
    },
    async getUserSession(tokenHash) {
      const row = db.prepare("SELECT * FROM user_sessions WHERE token_hash = ?").get(tokenHash) as
        | { token_hash: string; user_id: string; created_at: number; expires_at: number; revoked: number }
        | undefined;
      return row ? { tokenHash: row.token_hash, userId: row.user_id, createdAt: row.created_at, expiresAt: row.expires_at, revoked: row.revoked === 1 } : null;
    },
    async revokeUserSession(tokenHash) {
      db.prepare("UPDATE user_sessions SET revoked = 1 WHERE token_hash = ?").run(tokenHash);
    },
    async revokeUserSessions(userId, exceptTokenHash) {
      db.prepare("UPDATE user_sessions SET revoked = 1 WHERE user_id = ? AND token_hash != ?").run(userId, exceptTokenHash ?? "");
    },

    async putOneTimeCode(code) {
      db.prepare(
        `INSERT INTO one_time_codes (email_key, email, code_hash, expires_at, attempts, sent_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (email_key) DO UPDATE SET code_hash = excluded.code_hash, expires_at = excluded.expires_at,
           attempts = excluded.attempts, sent_at = excluded.sent_at`,
      ).run(emailKey(code.email), code.email, code.codeHash, code.expiresAt, code.attempts, code.sentAt);
    },
    async getOneTimeCode(email) {
      const row = db.prepare("SELECT * FROM one_time_codes WHERE email_key = ?").get(emailKey(email)) as
        | { email: string; code_hash: string; expires_at: number; attempts: number; sent_at: number }
        | undefined;
      return row ? { email: row.email, codeHash: row.code_hash, expiresAt: row.expires_at, attempts: row.attempts, sentAt: row.sent_at } : null;
    },
    async countOneTimeCodeAttempt(email) {
      db.prepare("UPDATE one_time_codes SET attempts = attempts + 1 WHERE email_key = ?").run(emailKey(email));
      return (db.prepare("SELECT attempts FROM one_time_codes WHERE email_key = ?").get(emailKey(email)) as { attempts: number } | undefined)?.attempts ?? 0;
    },
    async deleteOneTimeCode(email) {
      db.prepare("DELETE FROM one_time_codes WHERE email_key = ?").run(emailKey(email));
    },

    async close() {
      db.close();
    },
  };
}
