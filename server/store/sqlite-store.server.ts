import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { normalizePromoCode, ruleFromDollars, type PromoCode } from "~/domain/discounts";
import { centsFromDollars } from "~/domain/money";
import {
  decideClaim,
  decidePurchaseClaim,
  UNFINISHED_PURCHASE_STATES,
  DuplicateAccountError,
  emailKey,
  FINAL_ATTEMPT_STATES,
  type AccountRecord,
  type AccountStore,
  type AffiliateDetails,
  type AffiliateStore,
  type BookingRecovery,
  type BookingRecoveryStore,
  type CenterPricingStore,
  type GuestDetails,
  type GuestDetailsStore,
  type OneTimeCodeStore,
  type PaymentAttempt,
  type PaymentAttemptClaim,
  type PaymentAttemptStore,
  type PricingStore,
  type PricingTiers,
  type PromoCodeStore,
  type Purchase,
  type PurchaseClaim,
  type PurchaseStore,
  type Referral,
  type ReferralAdded,
  type ReferralCodeRecord,
  type ReferralStore,
  type VisitRevisionStore,
  type Stores,
  type UserSessionStore,
  type WaitlistEntry,
  type WaitlistSignal,
  type WaitlistStore,
} from "./stores.server";

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
    for (const row of db.prepare("SELECT partner_type, prices FROM partner_pricing").all() as {
      partner_type: string;
      prices: string;
    }[]) {
      const prices = Object.fromEntries(
        Object.entries(JSON.parse(row.prices) as Record<string, number>).map(([id, dollars]) => [
          id,
          centsFromDollars(dollars),
        ]),
      );
      db.prepare("UPDATE partner_pricing SET prices = ? WHERE partner_type = ?").run(
        JSON.stringify(prices),
        row.partner_type,
      );
    }
    for (const row of db.prepare("SELECT code, promo FROM promo_codes").all() as { code: string; promo: string }[]) {
      const promo = JSON.parse(row.promo) as PromoCode;
      db.prepare("UPDATE promo_codes SET promo = ? WHERE code = ?").run(
        JSON.stringify({ ...promo, rules: promo.rules.map(ruleFromDollars) }),
        row.code,
      );
    }
  },
  `ALTER TABLE accounts ADD COLUMN referral_code TEXT;`,
  `CREATE TABLE visit_revisions (visit_id TEXT PRIMARY KEY, sequence INTEGER NOT NULL, updated_at INTEGER NOT NULL);`,
  // The record is JSON (its amounts in cents, as its field names say); the columns are what it is found by.
  `CREATE TABLE purchases (
     id TEXT PRIMARY KEY, key TEXT NOT NULL UNIQUE, user_id TEXT NOT NULL, created_at INTEGER NOT NULL, data TEXT NOT NULL
   );
   CREATE INDEX purchases_user ON purchases(user_id, created_at);`,
  // Referrals (points are whole numbers, never money). A code is kept in upper case and unique
  // whatever its case; an account has one.
  `CREATE TABLE referral_codes (
     account_id TEXT PRIMARY KEY, code TEXT NOT NULL COLLATE NOCASE, guest_id TEXT NOT NULL, first_name TEXT NOT NULL,
     center_id TEXT NOT NULL, created_at INTEGER NOT NULL
   );
   CREATE UNIQUE INDEX referral_codes_code ON referral_codes(code);
   CREATE TABLE referrals (
     email_key TEXT PRIMARY KEY, friend_email TEXT NOT NULL, friend_first_name TEXT NOT NULL, friend_guest_id TEXT,
     code TEXT NOT NULL, referrer_account_id TEXT NOT NULL, referrer_guest_id TEXT NOT NULL, created_at INTEGER NOT NULL,
     state TEXT NOT NULL, checked_at INTEGER, reward_points INTEGER NOT NULL DEFAULT 0, rewarded_at INTEGER, visit_id TEXT
   );
   CREATE INDEX referrals_referrer ON referrals(referrer_account_id, created_at);
   CREATE INDEX referrals_awaiting ON referrals(state, checked_at);`,
  // Affiliate details and partner pricing are read again: when the first treatment was last asked
  // about, and the partner's name; the tier configuration is one JSON record, its charges in cents.
  `ALTER TABLE impact_affiliate_details ADD COLUMN checked_at INTEGER;
   ALTER TABLE partner_pricing ADD COLUMN name TEXT;
   CREATE TABLE pricing_tiers (id TEXT PRIMARY KEY CHECK (id = 'current'), data TEXT NOT NULL);`,
  // When a reward's credit was handed on, and when a send of it last failed; the rewards made
  // before this were sent once, and count as sent.
  `ALTER TABLE referrals ADD COLUMN credit_sent_at INTEGER;
   ALTER TABLE referrals ADD COLUMN credit_tried_at INTEGER;
   UPDATE referrals SET credit_sent_at = rewarded_at WHERE state = 'rewarded';
   CREATE INDEX referrals_uncredited ON referrals(state, credit_sent_at);`,
  // A code's friends are counted when one more is recorded (decision 038).
  `CREATE INDEX referrals_code ON referrals(code);`,
  // Recovery messages for unfinished bookings (decision 059): the record is JSON; the columns are what it is found by.
  // "IF NOT EXISTS": a store file whose version was set back (the tests of older files) runs it again harmlessly.
  `CREATE TABLE IF NOT EXISTS booking_recoveries (
     id TEXT PRIMARY KEY, draft_id TEXT NOT NULL UNIQUE, guest_id TEXT, state TEXT NOT NULL, due_at INTEGER NOT NULL,
     created_at INTEGER NOT NULL, data TEXT NOT NULL
   );
   CREATE INDEX IF NOT EXISTS booking_recoveries_due ON booking_recoveries(state, due_at);
   CREATE INDEX IF NOT EXISTS booking_recoveries_guest ON booking_recoveries(guest_id);
   CREATE INDEX IF NOT EXISTS booking_recoveries_created ON booking_recoveries(created_at);`,
  // The waitlist of full days (decision 058): the entry is JSON; the columns are what it is found by.
  // A day a time may have opened on, one row per clinic day; and the named leases of the waitlist's pass.
  `CREATE TABLE waitlist_entries (
     id TEXT PRIMARY KEY, center_id TEXT NOT NULL, contact TEXT NOT NULL, account_id TEXT, created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL, checked_at INTEGER, data TEXT NOT NULL
   );
   CREATE INDEX waitlist_entries_center ON waitlist_entries(center_id, created_at);
   CREATE INDEX waitlist_entries_contact ON waitlist_entries(contact);
   CREATE INDEX waitlist_entries_account ON waitlist_entries(account_id, created_at);
   CREATE TABLE waitlist_signals (center_id TEXT NOT NULL, date TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (center_id, date, at));
   CREATE INDEX waitlist_signals_due ON waitlist_signals(at);
   CREATE TABLE job_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL);`,
];

/** SQLite's answer to a second row for a unique key. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

function openDatabase(file: string): Database.Database {
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
  return db;
}

/**
 * Writes the columns given (undefined ones are left as they are) of the row whose `keyColumn` is
 * `key`; throws `missing` when there is no such row, even when nothing is to be written.
 */
function updateColumns(
  db: Database.Database,
  table: string,
  keyColumn: string,
  key: string,
  columns: Record<string, string | number | null | undefined>,
  missing: string,
): void {
  const given = Object.entries(columns).filter(([, value]) => value !== undefined);
  if (given.length === 0) {
    if (!db.prepare(`SELECT 1 FROM ${table} WHERE ${keyColumn} = ?`).get(key)) throw new Error(missing);
    return;
  }
  const result = db
    .prepare(`UPDATE ${table} SET ${given.map(([column]) => `${column} = ?`).join(", ")} WHERE ${keyColumn} = ?`)
    .run(...given.map(([, value]) => value), key);
  if (result.changes === 0) throw new Error(missing);
}

/** A boolean patch field as SQLite keeps it (undefined: not to be written). */
function flag(value: boolean | undefined): number | undefined {
  return value === undefined ? undefined : value ? 1 : 0;
}

type GuestRow = {
  email: string;
  guest_id: string;
  is_password_set: number;
  is_return_user: number;
  promo_codes: string;
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

/** Guest details keyed by lower-cased email (every row has had its key since the first migration). */
function guestDetailsStore(db: Database.Database): GuestDetailsStore {
  const select = db.prepare("SELECT * FROM guest_details WHERE email_key = ?");
  const insert = db.prepare(
    `INSERT INTO guest_details (email_key, email, guest_id, is_password_set, is_return_user, promo_codes) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const writeCodes = db.prepare("UPDATE guest_details SET promo_codes = ? WHERE email_key = ?");
  const codesOf = (row: GuestRow | undefined) => (row ? (JSON.parse(row.promo_codes) as Record<string, number>) : {});

  const claim = db.transaction(
    (input: { email: string; guestId: string; code: string; maxUses: number | null }): boolean => {
      const key = emailKey(input.email);
      const row = select.get(key) as GuestRow | undefined;
      const codes = codesOf(row);
      const used = codes[input.code] ?? 0;
      if (input.maxUses !== null && used >= input.maxUses) return false;
      codes[input.code] = used + 1;
      if (row) writeCodes.run(JSON.stringify(codes), key);
      else insert.run(key, input.email.trim(), input.guestId, 0, 0, JSON.stringify(codes));
      return true;
    },
  );
  const release = db.transaction((email: string, code: string) => {
    const key = emailKey(email);
    const row = select.get(key) as GuestRow | undefined;
    if (!row) throw new Error("No guestDetails record for this email");
    const codes = codesOf(row);
    codes[code] = Math.max(0, (codes[code] ?? 0) - 1);
    writeCodes.run(JSON.stringify(codes), key);
  });

  return {
    async get(email) {
      const row = select.get(emailKey(email)) as GuestRow | undefined;
      return row ? toGuest(row) : null;
    },
    async create(details) {
      try {
        insert.run(
          emailKey(details.email),
          details.email.trim(),
          details.guest_id,
          details.is_password_set ? 1 : 0,
          details.is_return_user ? 1 : 0,
          JSON.stringify(details.promo_codes ?? {}),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw new Error("A guestDetails record already exists for this email");
        throw error;
      }
    },
    async update(email, patch) {
      updateColumns(
        db,
        "guest_details",
        "email_key",
        emailKey(email),
        { is_password_set: flag(patch.is_password_set), is_return_user: flag(patch.is_return_user) },
        "No guestDetails record for this email",
      );
    },
    async claimPromoUse(input) {
      return claim.immediate(input);
    },
    async releasePromoUse(email, code) {
      release.immediate(email, code);
    },
  };
}

function centerPricingStore(db: Database.Database): CenterPricingStore {
  return {
    async get(centerId, serviceIds) {
      if (serviceIds.length === 0) return [];
      const placeholders = serviceIds.map(() => "?").join(",");
      const rows = db
        .prepare(`SELECT * FROM center_pricing WHERE center_id = ? AND service_id IN (${placeholders})`)
        .all(centerId, ...serviceIds) as {
        center_id: string;
        service_id: string;
        price_cents: number;
        is_prepaid_service: number;
      }[];
      return rows.map((r) => ({
        centerId: r.center_id,
        serviceId: r.service_id,
        price: r.price_cents,
        isPrepaidService: r.is_prepaid_service === 1,
      }));
    },
    async put(price) {
      db.prepare(
        `INSERT INTO center_pricing (center_id, service_id, price_cents, is_prepaid_service) VALUES (?, ?, ?, ?)
         ON CONFLICT (center_id, service_id) DO UPDATE SET price_cents = excluded.price_cents, is_prepaid_service = excluded.is_prepaid_service`,
      ).run(price.centerId, price.serviceId, price.price, price.isPrepaidService ? 1 : 0);
    },
  };
}

function promoCodeStore(db: Database.Database): PromoCodeStore {
  return {
    async get(code) {
      const row = db.prepare("SELECT promo FROM promo_codes WHERE code = ?").get(normalizePromoCode(code)) as
        | { promo: string }
        | undefined;
      return row ? (JSON.parse(row.promo) as PromoCode) : null;
    },
    async put(promo) {
      const code = normalizePromoCode(promo.code);
      db.prepare(
        "INSERT INTO promo_codes (code, promo) VALUES (?, ?) ON CONFLICT (code) DO UPDATE SET promo = excluded.promo",
      ).run(code, JSON.stringify({ ...promo, code }));
    },
  };
}

type AccountRow = {
  id: string;
  email: string;
  guest_id: string;
  center_id: string;
  password_hash: string;
  created_at: number;
  password_changed_at: number;
  referral_code: string | null;
};

function toAccount(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    email: row.email,
    guestId: row.guest_id,
    centerId: row.center_id,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
    passwordChangedAt: row.password_changed_at,
    ...(row.referral_code ? { referralCode: row.referral_code } : {}),
  };
}

function accountStore(db: Database.Database): AccountStore {
  return {
    async create(account) {
      try {
        db.prepare(
          `INSERT INTO accounts (id, email_key, email, guest_id, center_id, password_hash, created_at, password_changed_at, referral_code)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          account.id,
          emailKey(account.email),
          account.email.trim(),
          account.guestId,
          account.centerId,
          account.passwordHash,
          account.createdAt,
          account.passwordChangedAt,
          account.referralCode ?? null,
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateAccountError();
        throw error;
      }
    },
    async getByEmail(email) {
      const row = db.prepare("SELECT * FROM accounts WHERE email_key = ?").get(emailKey(email)) as
        | AccountRow
        | undefined;
      return row ? toAccount(row) : null;
    },
    async getById(id) {
      const row = db.prepare("SELECT * FROM accounts WHERE id = ?").get(id) as AccountRow | undefined;
      return row ? toAccount(row) : null;
    },
    async updatePassword(id, passwordHash, changedAt) {
      db.prepare("UPDATE accounts SET password_hash = ?, password_changed_at = ? WHERE id = ?").run(
        passwordHash,
        changedAt,
        id,
      );
    },
  };
}

function userSessionStore(db: Database.Database): UserSessionStore {
  return {
    async create(session) {
      db.prepare(
        "INSERT INTO user_sessions (token_hash, user_id, created_at, expires_at, revoked) VALUES (?, ?, ?, ?, 0)",
      ).run(session.tokenHash, session.userId, session.createdAt, session.expiresAt);
    },
    async get(tokenHash) {
      const row = db.prepare("SELECT * FROM user_sessions WHERE token_hash = ?").get(tokenHash) as
        | { token_hash: string; user_id: string; created_at: number; expires_at: number; revoked: number }
        | undefined;
      return row
        ? {
            tokenHash: row.token_hash,
            userId: row.user_id,
            createdAt: row.created_at,
            expiresAt: row.expires_at,
            revoked: row.revoked === 1,
          }
        : null;
    },
    async revoke(tokenHash) {
      db.prepare("UPDATE user_sessions SET revoked = 1 WHERE token_hash = ?").run(tokenHash);
    },
    async revokeAllOfUser(userId, exceptTokenHash) {
      db.prepare("UPDATE user_sessions SET revoked = 1 WHERE user_id = ? AND token_hash != ?").run(
        userId,
        exceptTokenHash ?? "",
      );
    },
  };
}

function oneTimeCodeStore(db: Database.Database): OneTimeCodeStore {
  return {
    async put(code) {
      db.prepare(
        `INSERT INTO one_time_codes (email_key, email, code_hash, expires_at, attempts, sent_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (email_key) DO UPDATE SET email = excluded.email, code_hash = excluded.code_hash, expires_at = excluded.expires_at,
           attempts = excluded.attempts, sent_at = excluded.sent_at`,
      ).run(emailKey(code.email), code.email, code.codeHash, code.expiresAt, code.attempts, code.sentAt);
    },
    async get(email) {
      const row = db.prepare("SELECT * FROM one_time_codes WHERE email_key = ?").get(emailKey(email)) as
        | { email: string; code_hash: string; expires_at: number; attempts: number; sent_at: number }
        | undefined;
      return row
        ? {
            email: row.email,
            codeHash: row.code_hash,
            expiresAt: row.expires_at,
            attempts: row.attempts,
            sentAt: row.sent_at,
          }
        : null;
    },
    async countWrongGuess(email) {
      const row = db
        .prepare("UPDATE one_time_codes SET attempts = attempts + 1 WHERE email_key = ? RETURNING attempts")
        .get(emailKey(email)) as { attempts: number } | undefined;
      return row?.attempts ?? 0;
    },
    async delete(email) {
      db.prepare("DELETE FROM one_time_codes WHERE email_key = ?").run(emailKey(email));
    },
  };
}

function paymentAttemptStore(db: Database.Database): PaymentAttemptStore {
  const select = db.prepare("SELECT data FROM payment_attempts WHERE key = ?");
  const write = db.prepare(
    `INSERT INTO payment_attempts (key, state, lease_until, updated_at, data) VALUES (@key, @state, @leaseUntil, @updatedAt, @data)
     ON CONFLICT (key) DO UPDATE SET state = excluded.state, lease_until = excluded.lease_until, updated_at = excluded.updated_at, data = excluded.data`,
  );
  const read = (key: string) => {
    const row = select.get(key) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as PaymentAttempt) : null;
  };
  const save = (attempt: PaymentAttempt) =>
    write.run({
      key: attempt.key,
      state: attempt.state,
      leaseUntil: attempt.leaseUntil,
      updatedAt: attempt.updatedAt,
      data: JSON.stringify(attempt),
    });
  const claim = db.transaction((fresh: PaymentAttempt, now: number): PaymentAttemptClaim => {
    const { write: next, ...claimed } = decideClaim(read(fresh.key), fresh, now);
    if (next) save(next);
    return claimed;
  });
  const finalStates = FINAL_ATTEMPT_STATES.map((state) => `'${state}'`).join(", ");

  return {
    async claim(fresh, now) {
      return claim.immediate(fresh, now);
    },
    async save(attempt) {
      save(attempt);
    },
    async get(key) {
      return read(key);
    },
    async listStale(now, idleBefore, limit) {
      const rows = db
        .prepare(
          `SELECT data FROM payment_attempts WHERE state NOT IN (${finalStates}) AND lease_until <= ? AND updated_at <= ? ORDER BY updated_at LIMIT ?`,
        )
        .all(now, idleBefore, limit) as { data: string }[];
      return rows.map((row) => JSON.parse(row.data) as PaymentAttempt);
    },
  };
}

function purchaseStore(db: Database.Database): PurchaseStore {
  const byId = db.prepare("SELECT data FROM purchases WHERE id = ?");
  const byKey = db.prepare("SELECT data FROM purchases WHERE key = ?");
  const write = db.prepare(
    `INSERT INTO purchases (id, key, user_id, created_at, data) VALUES (@id, @key, @userId, @createdAt, @data)
     ON CONFLICT (id) DO UPDATE SET key = excluded.key, user_id = excluded.user_id, created_at = excluded.created_at, data = excluded.data`,
  );
  const parse = (row: unknown) => (row ? (JSON.parse((row as { data: string }).data) as Purchase) : null);
  const read = (id: string) => parse(byId.get(id));
  const save = (purchase: Purchase) =>
    write.run({
      id: purchase.id,
      key: purchase.key,
      userId: purchase.userId,
      createdAt: purchase.createdAt,
      data: JSON.stringify(purchase),
    });
  const createOnce = db.transaction((fresh: Purchase): { created: boolean; purchase: Purchase } => {
    const existing = parse(byKey.get(fresh.key));
    if (existing) return { created: false, purchase: existing };
    save(fresh);
    return { created: true, purchase: fresh };
  });
  const claim = db.transaction((id: string, leaseUntil: number, now: number): PurchaseClaim | null => {
    const existing = read(id);
    if (!existing) return null;
    const { write: next, ...claimed } = decidePurchaseClaim(existing, leaseUntil, now);
    if (next) save(next);
    return claimed;
  });

  return {
    async createOnce(fresh) {
      return createOnce.immediate(fresh);
    },
    async claim(id, leaseUntil, now) {
      return claim.immediate(id, leaseUntil, now);
    },
    async save(purchase) {
      save(purchase);
    },
    async get(id) {
      return read(id);
    },
    async listForUser(userId, limit) {
      const rows = db
        .prepare("SELECT data FROM purchases WHERE user_id = ? ORDER BY created_at DESC, id LIMIT ?")
        .all(userId, limit) as { data: string }[];
      return rows.map((row) => JSON.parse(row.data) as Purchase);
    },
    async listUnfinished(now, idleBefore, limit) {
      // Few purchases are ever unfinished: the record's own fields are read, no extra columns.
      const states = UNFINISHED_PURCHASE_STATES.map(() => "?").join(",");
      const rows = db
        .prepare(
          `SELECT data FROM purchases WHERE json_extract(data, '$.state') IN (${states})
             AND json_extract(data, '$.leaseUntil') <= ? AND json_extract(data, '$.updatedAt') <= ?
           ORDER BY json_extract(data, '$.updatedAt') LIMIT ?`,
        )
        .all(...UNFINISHED_PURCHASE_STATES, now, idleBefore, limit) as { data: string }[];
      return rows.map((row) => JSON.parse(row.data) as Purchase);
    },
  };
}

function visitRevisionStore(db: Database.Database): VisitRevisionStore {
  return {
    async get(visitId) {
      const row = db.prepare("SELECT sequence FROM visit_revisions WHERE visit_id = ?").get(visitId.toLowerCase()) as
        | { sequence: number }
        | undefined;
      return row?.sequence ?? 0;
    },
    async bump(visitId, now) {
      const row = db
        .prepare(
          `INSERT INTO visit_revisions (visit_id, sequence, updated_at) VALUES (?, 1, ?)
           ON CONFLICT (visit_id) DO UPDATE SET sequence = sequence + 1, updated_at = excluded.updated_at RETURNING sequence`,
        )
        .get(visitId.toLowerCase(), now) as { sequence: number };
      return row.sequence;
    },
  };
}

/** How many codes `codeFor` makes before it gives up: a maker that only gives taken codes is a bug. */
const REFERRAL_CODE_TRIES = 20;

/** A referral code as it is kept and looked up: upper case, without the spaces around it. */
function referralCodeKey(code: string): string {
  return code.trim().toUpperCase();
}

type ReferralCodeRow = {
  account_id: string;
  code: string;
  guest_id: string;
  first_name: string;
  center_id: string;
  created_at: number;
};

type ReferralRow = {
  friend_email: string;
  friend_first_name: string;
  friend_guest_id: string | null;
  code: string;
  referrer_account_id: string;
  referrer_guest_id: string;
  created_at: number;
  state: Referral["state"];
  checked_at: number | null;
  reward_points: number;
  rewarded_at: number | null;
  visit_id: string | null;
  credit_sent_at: number | null;
  credit_tried_at: number | null;
};

function toReferral(row: ReferralRow): Referral {
  return {
    friendEmail: row.friend_email,
    friendFirstName: row.friend_first_name,
    friendGuestId: row.friend_guest_id,
    code: row.code,
    referrerAccountId: row.referrer_account_id,
    referrerGuestId: row.referrer_guest_id,
    createdAt: row.created_at,
    state: row.state,
    checkedAt: row.checked_at,
    rewardPoints: row.reward_points,
    rewardedAt: row.rewarded_at,
    visitId: row.visit_id,
    creditSentAt: row.credit_sent_at,
    creditTriedAt: row.credit_tried_at,
  };
}

/** Referral codes (one per account, unique in any case) and the friends referred, one per email. */
function referralStore(db: Database.Database): ReferralStore {
  const byAccount = db.prepare("SELECT * FROM referral_codes WHERE account_id = ?");
  const byCode = db.prepare("SELECT * FROM referral_codes WHERE code = ?");
  const insertCode = db.prepare(
    "INSERT INTO referral_codes (account_id, code, guest_id, first_name, center_id, created_at) VALUES (@accountId, @code, @guestId, @firstName, @centerId, @createdAt)",
  );
  const toCode = (row: ReferralCodeRow): ReferralCodeRecord => ({
    code: row.code,
    accountId: row.account_id,
    guestId: row.guest_id,
    firstName: row.first_name,
    centerId: row.center_id,
    createdAt: row.created_at,
  });
  const selectReferral = db.prepare("SELECT * FROM referrals WHERE email_key = ?");
  const insertReferral = db.prepare(
    `INSERT INTO referrals (email_key, friend_email, friend_first_name, friend_guest_id, code, referrer_account_id, referrer_guest_id,
       created_at, state, checked_at, reward_points, rewarded_at, visit_id, credit_sent_at, credit_tried_at)
     VALUES (@emailKey, @friendEmail, @friendFirstName, @friendGuestId, @code, @referrerAccountId, @referrerGuestId,
       @createdAt, @state, @checkedAt, @rewardPoints, @rewardedAt, @visitId, @creditSentAt, @creditTriedAt)
     ON CONFLICT (email_key) DO NOTHING`,
  );
  const countByCode = db.prepare("SELECT COUNT(*) AS friends FROM referrals WHERE code = ?");
  const deleteClaim = db.prepare(
    "DELETE FROM referrals WHERE email_key = ? AND code = ? AND state = 'registered' AND friend_guest_id IS NULL",
  );
  // The count and the insert under one write lock (BEGIN IMMEDIATE): another connection, in this
  // process or another, waits for it, so a code never refers more than its cap.
  const addReferral = db.transaction((row: Record<string, unknown>, cap: number): ReferralAdded => {
    if (selectReferral.get(row.emailKey)) return "already-referred";
    if ((countByCode.get(row.code) as { friends: number }).friends >= cap) return "used-up";
    insertReferral.run(row);
    return "added";
  });
  const rewardReferral = db.prepare(
    "UPDATE referrals SET state = 'rewarded', reward_points = ?, rewarded_at = ?, visit_id = ? WHERE email_key = ? AND state = 'registered'",
  );

  const codeFor = db.transaction(
    (owner: Omit<ReferralCodeRecord, "code" | "createdAt">, make: () => string, now: number): ReferralCodeRecord => {
      const existing = byAccount.get(owner.accountId) as ReferralCodeRow | undefined;
      if (existing) return toCode(existing);
      for (let tries = 0; tries < REFERRAL_CODE_TRIES; tries++) {
        const code = referralCodeKey(make());
        if (!code || byCode.get(code)) continue;
        const record: ReferralCodeRecord = {
          code,
          accountId: owner.accountId,
          guestId: owner.guestId,
          firstName: owner.firstName,
          centerId: owner.centerId,
          createdAt: now,
        };
        insertCode.run(record);
        return record;
      }
      throw new Error(`No free referral code after ${REFERRAL_CODE_TRIES} tries`);
    },
  );

  return {
    async codeFor(owner, make, now) {
      return codeFor.immediate(owner, make, now);
    },
    async byCode(code) {
      const row = byCode.get(referralCodeKey(code)) as ReferralCodeRow | undefined;
      return row ? toCode(row) : null;
    },
    async forOwner(accountId) {
      const row = byAccount.get(accountId) as ReferralCodeRow | undefined;
      return row ? toCode(row) : null;
    },
    async add(referral, cap) {
      return addReferral.immediate(
        {
          emailKey: emailKey(referral.friendEmail),
          friendEmail: referral.friendEmail,
          friendFirstName: referral.friendFirstName,
          friendGuestId: referral.friendGuestId,
          code: referral.code,
          referrerAccountId: referral.referrerAccountId,
          referrerGuestId: referral.referrerGuestId,
          createdAt: referral.createdAt,
          state: referral.state,
          checkedAt: referral.checkedAt,
          rewardPoints: referral.rewardPoints,
          rewardedAt: referral.rewardedAt,
          visitId: referral.visitId,
          creditSentAt: referral.creditSentAt,
          creditTriedAt: referral.creditTriedAt,
        },
        cap,
      );
    },
    async release(friendEmail, code) {
      return deleteClaim.run(emailKey(friendEmail), code).changes === 1;
    },
    async forFriend(email) {
      const row = selectReferral.get(emailKey(email)) as ReferralRow | undefined;
      return row ? toReferral(row) : null;
    },
    async listByReferrer(accountId, limit) {
      const rows = db
        .prepare("SELECT * FROM referrals WHERE referrer_account_id = ? ORDER BY created_at DESC, email_key LIMIT ?")
        .all(accountId, limit) as ReferralRow[];
      return rows.map(toReferral);
    },
    async update(friendEmail, patch) {
      updateColumns(
        db,
        "referrals",
        "email_key",
        emailKey(friendEmail),
        {
          friend_guest_id: patch.friendGuestId,
          checked_at: patch.checkedAt,
          credit_sent_at: patch.creditSentAt,
          credit_tried_at: patch.creditTriedAt,
        },
        "No referral for this email",
      );
    },
    async reward(friendEmail, reward) {
      // One conditional update: of two rewards at once, only one finds the referral still "registered".
      return rewardReferral.run(reward.points, reward.now, reward.visitId, emailKey(friendEmail)).changes === 1;
    },
    async listAwaitingReward(checkedBefore, limit) {
      const rows = db
        .prepare(
          `SELECT * FROM referrals WHERE state = 'registered' AND friend_guest_id IS NOT NULL AND (checked_at IS NULL OR checked_at < ?)
           ORDER BY checked_at IS NOT NULL, checked_at, created_at, email_key LIMIT ?`,
        )
        .all(checkedBefore, limit) as ReferralRow[];
      return rows.map(toReferral);
    },
    async listUncredited(triedBefore, limit) {
      const rows = db
        .prepare(
          `SELECT * FROM referrals WHERE state = 'rewarded' AND credit_sent_at IS NULL AND COALESCE(credit_tried_at, rewarded_at) < ?
           ORDER BY COALESCE(credit_tried_at, rewarded_at), email_key LIMIT ?`,
        )
        .all(triedBefore, limit) as ReferralRow[];
      return rows.map(toReferral);
    },
  };
}

type AffiliateRow = {
  user_id: string;
  user_email: string;
  irclickid: string;
  timestamp: number;
  is_ft_treated_triggered: number;
  is_expired: number;
  checked_at: number | null;
};

function toAffiliate(row: AffiliateRow): AffiliateDetails {
  return {
    user_id: row.user_id,
    user_email: row.user_email,
    irclickid: row.irclickid,
    timestamp: row.timestamp,
    isFtTreatedTriggered: row.is_ft_treated_triggered === 1,
    isExpired: row.is_expired === 1,
    checkedAt: row.checked_at,
  };
}

/** The spec's impactAffiliateDetails, one row per user. */
function affiliateStore(db: Database.Database): AffiliateStore {
  const select = db.prepare("SELECT * FROM impact_affiliate_details WHERE user_id = ?");
  const record = db.transaction(
    (input: {
      userId: string;
      userEmail: string;
      clickId: string;
      clickedAt: number;
    }): "created" | "updated" | "unchanged" => {
      const existing = select.get(input.userId) as AffiliateRow | undefined;
      if (!existing) {
        db.prepare(
          `INSERT INTO impact_affiliate_details (user_id, user_email, irclickid, timestamp, is_ft_treated_triggered, is_expired, checked_at)
         VALUES (?, ?, ?, ?, 0, 0, NULL)`,
        ).run(input.userId, input.userEmail, input.clickId, input.clickedAt);
        return "created";
      }
      if (existing.irclickid === input.clickId) return "unchanged";
      // A new click starts a new window.
      db.prepare(
        "UPDATE impact_affiliate_details SET irclickid = ?, timestamp = ?, is_ft_treated_triggered = 0, is_expired = 0 WHERE user_id = ?",
      ).run(input.clickId, input.clickedAt, input.userId);
      return "updated";
    },
  );

  return {
    async get(userId) {
      const row = select.get(userId) as AffiliateRow | undefined;
      return row ? toAffiliate(row) : null;
    },
    async record(input) {
      return record.immediate(input);
    },
    async update(userId, patch) {
      updateColumns(
        db,
        "impact_affiliate_details",
        "user_id",
        userId,
        {
          is_ft_treated_triggered: flag(patch.isFtTreatedTriggered),
          is_expired: flag(patch.isExpired),
          checked_at: patch.checkedAt,
        },
        "No impactAffiliateDetails record for this user",
      );
    },
    async listOpen(checkedBefore, limit) {
      const rows = db
        .prepare(
          `SELECT * FROM impact_affiliate_details WHERE is_ft_treated_triggered = 0 AND is_expired = 0 AND (checked_at IS NULL OR checked_at < ?)
           ORDER BY checked_at IS NOT NULL, checked_at, timestamp, user_id LIMIT ?`,
        )
        .all(checkedBefore, limit) as AffiliateRow[];
      return rows.map(toAffiliate);
    },
  };
}

/**
 * Partner prices (a JSON map of service id to cents, as the migration to cents left the rows),
 * the tier configuration (one JSON record, charges in cents) and the LHR add-on prices in cents.
 */
function pricingStore(db: Database.Database): PricingStore {
  return {
    async partner(partnerType) {
      const type = partnerType.toUpperCase();
      const row = db
        .prepare("SELECT partner_type, name, prices FROM partner_pricing WHERE partner_type = ?")
        .get(type) as { partner_type: string; name: string | null; prices: string } | undefined;
      if (!row) return null;
      const prices = Object.entries(JSON.parse(row.prices) as Record<string, number>).map(([serviceId, price]) => ({
        serviceId,
        price,
      }));
      // A row written before partners had names is shown under its type.
      return { partnerType: row.partner_type, name: row.name ?? row.partner_type, prices };
    },
    async putPartner(pricing) {
      const type = pricing.partnerType.toUpperCase();
      const prices = Object.fromEntries(pricing.prices.map((p) => [p.serviceId, p.price]));
      db.prepare(
        `INSERT INTO partner_pricing (partner_type, name, prices) VALUES (?, ?, ?)
         ON CONFLICT (partner_type) DO UPDATE SET name = excluded.name, prices = excluded.prices`,
      ).run(type, pricing.name, JSON.stringify(prices));
    },
    async tiers() {
      const row = db.prepare("SELECT data FROM pricing_tiers WHERE id = 'current'").get() as
        | { data: string }
        | undefined;
      if (!row) return null;
      const stored = JSON.parse(row.data) as PricingTiers;
      // Offer tiers saved before they had a campaign code have none.
      return { ...stored, offerTiers: stored.offerTiers.map((t) => ({ ...t, code: t.code ?? null })) };
    },
    async putTiers(tiers) {
      const stored: PricingTiers = {
        priceTiers: tiers.priceTiers.map((t) => ({ code: t.code, charge: t.charge, serviceIds: [...t.serviceIds] })),
        defaultPriceTier: tiers.defaultPriceTier,
        offerTiers: tiers.offerTiers.map((t) => ({ percent: t.percent, serviceIds: [...t.serviceIds], code: t.code })),
      };
      db.prepare(
        "INSERT INTO pricing_tiers (id, data) VALUES ('current', ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data",
      ).run(JSON.stringify(stored));
    },
    async addOnPrices(serviceIds) {
      const ids = [...new Set(serviceIds)];
      if (ids.length === 0) return [];
      const rows = db
        .prepare(
          `SELECT service_id, price_cents FROM add_on_lhr_prices WHERE service_id IN (${ids.map(() => "?").join(",")})`,
        )
        .all(...ids) as { service_id: string; price_cents: number }[];
      return rows.map((r) => ({ serviceId: r.service_id, price: r.price_cents }));
    },
    async putAddOnPrice(price) {
      db.prepare(
        "INSERT INTO add_on_lhr_prices (service_id, price_cents) VALUES (?, ?) ON CONFLICT (service_id) DO UPDATE SET price_cents = excluded.price_cents",
      ).run(price.serviceId, price.price);
    },
  };
}

function bookingRecoveryStore(db: Database.Database): BookingRecoveryStore {
  const byId = db.prepare("SELECT data FROM booking_recoveries WHERE id = ?");
  const byDraft = db.prepare("SELECT data FROM booking_recoveries WHERE draft_id = ?");
  const write = db.prepare(
    `INSERT INTO booking_recoveries (id, draft_id, guest_id, state, due_at, created_at, data)
       VALUES (@id, @draftId, @guestId, @state, @dueAt, @createdAt, @data)
     ON CONFLICT (id) DO UPDATE SET draft_id = excluded.draft_id, guest_id = excluded.guest_id, state = excluded.state,
       due_at = excluded.due_at, created_at = excluded.created_at, data = excluded.data`,
  );
  const parse = (row: unknown) => (row ? (JSON.parse((row as { data: string }).data) as BookingRecovery) : null);
  const save = (recovery: BookingRecovery) =>
    write.run({
      id: recovery.id,
      draftId: recovery.draftId,
      guestId: recovery.guestId,
      state: recovery.state,
      dueAt: recovery.dueAt,
      createdAt: recovery.createdAt,
      data: JSON.stringify(recovery),
    });
  const createOnce = db.transaction((fresh: BookingRecovery) => {
    const existing = parse(byDraft.get(fresh.draftId));
    if (existing) return { created: false, recovery: existing };
    save(fresh);
    return { created: true, recovery: fresh };
  });
  const claim = db.transaction((id: string): BookingRecovery | null => {
    const existing = parse(byId.get(id));
    if (!existing || existing.state !== "pending") return null;
    const taken: BookingRecovery = { ...existing, state: "sending" };
    save(taken);
    return taken;
  });
  return {
    async createOnce(fresh) {
      return createOnce.immediate(fresh);
    },
    async get(id) {
      return parse(byId.get(id));
    },
    async forDraft(draftId) {
      return parse(byDraft.get(draftId));
    },
    async save(recovery) {
      save(recovery);
    },
    async listDue(now, limit) {
      const rows = db
        .prepare(
          "SELECT data FROM booking_recoveries WHERE state = 'pending' AND due_at <= ? ORDER BY due_at, id LIMIT ?",
        )
        .all(now, limit);
      return rows.map((row) => parse(row)!);
    },
    async claim(id) {
      return claim.immediate(id);
    },
    async remove(id) {
      db.prepare("DELETE FROM booking_recoveries WHERE id = ?").run(id);
    },
    async removeForGuest(guestId) {
      return db.prepare("DELETE FROM booking_recoveries WHERE guest_id = ?").run(guestId).changes;
    },
    async removeCreatedBefore(createdBefore, limit) {
      return db
        .prepare(
          "DELETE FROM booking_recoveries WHERE id IN (SELECT id FROM booking_recoveries WHERE created_at < ? ORDER BY created_at LIMIT ?)",
        )
        .run(createdBefore, limit).changes;
    },
  };
}

function waitlistStore(db: Database.Database): WaitlistStore {
  const parse = (row: unknown) => (row ? (JSON.parse((row as { data: string }).data) as WaitlistEntry) : null);
  const all = (rows: unknown[]) => rows.map((row) => parse(row)!);
  const byId = db.prepare("SELECT data FROM waitlist_entries WHERE id = ?");
  const write = (entry: WaitlistEntry) =>
    db
      .prepare(
        `INSERT INTO waitlist_entries (id, center_id, contact, account_id, created_at, expires_at, checked_at, data)
         VALUES (@id, @centerId, @contact, @accountId, @createdAt, @expiresAt, @checkedAt, @data)
         ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at, data = excluded.data`,
      )
      .run({
        id: entry.id,
        centerId: entry.centerId,
        contact: entry.contact,
        accountId: entry.accountId,
        createdAt: entry.createdAt,
        expiresAt: entry.expiresAt,
        checkedAt: entry.checkedAt,
        data: JSON.stringify(entry),
      });
  const add = db.transaction((entry: WaitlistEntry, cap: number): "added" | "full" => {
    const { count } = db
      .prepare("SELECT COUNT(*) AS count FROM waitlist_entries WHERE contact = ?")
      .get(entry.contact) as {
      count: number;
    };
    if (count >= cap) return "full";
    write(entry);
    return "added";
  });
  const change = db.transaction((id: string, next: (entry: WaitlistEntry) => WaitlistEntry | null): boolean => {
    const entry = parse(byId.get(id));
    if (!entry) return false;
    const changed = next(entry);
    if (!changed) return false;
    write(changed);
    return true;
  });
  const lease = db.transaction((name: string, holder: string, until: number, now: number): boolean => {
    const row = db.prepare("SELECT holder, until FROM job_leases WHERE name = ?").get(name) as
      | { holder: string; until: number }
      | undefined;
    if (row && row.until > now && row.holder !== holder) return false;
    db.prepare(
      "INSERT INTO job_leases (name, holder, until) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until",
    ).run(name, holder, until);
    return true;
  });
  return {
    async add(entry, cap) {
      return add.immediate(entry, cap);
    },
    async get(id) {
      return parse(byId.get(id));
    },
    async remove(id) {
      return db.prepare("DELETE FROM waitlist_entries WHERE id = ?").run(id).changes > 0;
    },
    async listForAccount(accountId) {
      return all(
        db.prepare("SELECT data FROM waitlist_entries WHERE account_id = ? ORDER BY created_at, id").all(accountId),
      );
    },
    async listForContact(contact) {
      return all(
        db.prepare("SELECT data FROM waitlist_entries WHERE contact = ? ORDER BY created_at, id").all(contact),
      );
    },
    async listForDay(centerId, date) {
      // A clinic's entries are few: the days are matched here.
      return all(
        db.prepare("SELECT data FROM waitlist_entries WHERE center_id = ? ORDER BY created_at, id").all(centerId),
      ).filter((entry) => entry.days.includes(date));
    },
    async listUnchecked(checkedBefore, limit) {
      return all(
        db
          .prepare(
            `SELECT data FROM waitlist_entries WHERE checked_at IS NULL OR checked_at < ?
             ORDER BY checked_at IS NOT NULL, checked_at, created_at LIMIT ?`,
          )
          .all(checkedBefore, limit),
      );
    },
    async offer(id, slot, keep) {
      return change.immediate(id, (entry) =>
        entry.offered.includes(slot) ? null : { ...entry, offered: [...entry.offered, slot].slice(-keep) },
      );
    },
    async withdrawOffer(id, slot) {
      change.immediate(id, (entry) => ({ ...entry, offered: entry.offered.filter((s) => s !== slot) }));
    },
    async markChecked(id, now) {
      change.immediate(id, (entry) => ({ ...entry, checkedAt: now }));
    },
    async removeExpired(now) {
      return db.prepare("DELETE FROM waitlist_entries WHERE expires_at <= ?").run(now).changes;
    },
    async signal({ centerId, date, at }) {
      db.prepare("INSERT OR IGNORE INTO waitlist_signals (center_id, date, at) VALUES (?, ?, ?)").run(
        centerId,
        date,
        at,
      );
    },
    async listSignals(dueBy, limit) {
      const rows = db
        .prepare("SELECT center_id, date, at FROM waitlist_signals WHERE at <= ? ORDER BY at, center_id, date LIMIT ?")
        .all(dueBy, limit) as { center_id: string; date: string; at: number }[];
      return rows.map((r): WaitlistSignal => ({ centerId: r.center_id, date: r.date, at: r.at }));
    },
    async clearSignal(signal) {
      db.prepare("DELETE FROM waitlist_signals WHERE center_id = ? AND date = ? AND at = ?").run(
        signal.centerId,
        signal.date,
        signal.at,
      );
    },
    async lease(name, holder, until, now) {
      return lease.immediate(name, holder, until, now);
    },
  };
}

/** The embedded stores: one SQLite file, one table per kind of record (money in cents, docs/decisions/011). */
export function createSqliteStores(file: string): Stores {
  const db = openDatabase(file);
  return {
    kind: "sqlite",
    guestDetails: guestDetailsStore(db),
    centerPricing: centerPricingStore(db),
    promoCodes: promoCodeStore(db),
    accounts: accountStore(db),
    userSessions: userSessionStore(db),
    oneTimeCodes: oneTimeCodeStore(db),
    paymentAttempts: paymentAttemptStore(db),
    visitRevisions: visitRevisionStore(db),
    purchases: purchaseStore(db),
    referrals: referralStore(db),
    affiliates: affiliateStore(db),
    pricing: pricingStore(db),
    waitlist: waitlistStore(db),
    bookingRecoveries: bookingRecoveryStore(db),
    async ping() {
      db.prepare("SELECT 1").get();
    },
    async close() {
      db.close();
    },
  };
}
