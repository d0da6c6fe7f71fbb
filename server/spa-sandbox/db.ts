import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { preparePrivateFile } from "../data-dir.server";
import {
  GIFT_CARD_VALIDITY_DAYS,
  nurseDayOff,
  SEED_AVAILABILITY_GUEST,
  seedCenters,
  seedGiftCardOccasions,
  seedGiftCardTemplates,
  seedMembershipPlans,
  seedPackages,
  seedOfferTiers,
  seedPriceTiers,
  seedPromos,
  LATER_PROMO_CODES,
  seedReasons,
  seedReferralSources,
  seedServices,
  seedStaffReasons,
  seedWorkingHours,
} from "./seed-data";

export type SandboxDb = Database.Database;

/** An invoice as the booking and payment calls read it (the sales calls read `is_cancelled` too). */
export type InvoiceRow = {
  id: string;
  number: number;
  center_id: string;
  guest_id: string;
  booking_id: string | null;
  status: number;
  is_closed: number;
  campaign_code: string | null;
  created_at: number;
};

/** A stable GUID from a seed name, so the seeded chain has the same ids on every machine. */
export function seedGuid(name: string): string {
  const hex = createHash("sha256").update(`spa-sandbox:${name}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Zenoti ids compare case-insensitively and with or without dashes. */
export function normalizeId(id: string): string {
  return id.replace(/-/g, "").toLowerCase();
}

/** A row of a seeded table by its Zenoti id, whichever way the id is written. */
export function findRow<T>(db: SandboxDb, table: string, id: string): T | undefined {
  return db.prepare(`SELECT * FROM ${table} WHERE id_key = ?`).get(normalizeId(id)) as T | undefined;
}

const migrations: string[] = [
  `CREATE TABLE centers (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, code TEXT NOT NULL, name TEXT NOT NULL,
     display_name TEXT NOT NULL, description TEXT NOT NULL,
     address_1 TEXT NOT NULL, address_2 TEXT, city TEXT NOT NULL, state_code TEXT NOT NULL,
     state_name TEXT NOT NULL, zip_code TEXT NOT NULL, phone TEXT NOT NULL, email TEXT NOT NULL,
     latitude REAL NOT NULL, longitude REAL NOT NULL, time_zone_id INTEGER NOT NULL,
     time_zone_name TEXT NOT NULL, working_hours TEXT NOT NULL, prepaid INTEGER NOT NULL DEFAULT 0,
     sort_order INTEGER NOT NULL
   );
   CREATE TABLE therapists (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, center_id TEXT NOT NULL REFERENCES centers(id),
     code TEXT NOT NULL, first_name TEXT NOT NULL, last_name TEXT NOT NULL, gender TEXT NOT NULL,
     job_name TEXT NOT NULL
   );
   CREATE INDEX therapists_center ON therapists(center_id);
   CREATE TABLE services (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, code TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
     description TEXT NOT NULL, category_name TEXT NOT NULL, sub_category_name TEXT,
     duration INTEGER NOT NULL, recovery_time INTEGER NOT NULL, is_add_on INTEGER NOT NULL,
     add_on_codes TEXT NOT NULL, display_order INTEGER NOT NULL
   );
   CREATE TABLE center_services (
     center_id TEXT NOT NULL REFERENCES centers(id), service_id TEXT NOT NULL REFERENCES services(id),
     sale_price REAL NOT NULL, PRIMARY KEY (center_id, service_id)
   );
   CREATE TABLE access_tokens (
     token TEXT PRIMARY KEY, username TEXT NOT NULL, expires_at INTEGER NOT NULL
   );`,
  `ALTER TABLE therapists ADD COLUMN day_off INTEGER;
   CREATE TABLE guests (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, center_id TEXT NOT NULL, code TEXT NOT NULL,
     first_name TEXT NOT NULL, last_name TEXT NOT NULL, email TEXT, email_key TEXT, phone TEXT,
     payload TEXT NOT NULL, created_at INTEGER NOT NULL
   );
   CREATE INDEX guests_email ON guests(email_key);
   CREATE INDEX guests_phone ON guests(phone);
   CREATE TABLE bookings (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, center_id TEXT NOT NULL, date TEXT NOT NULL,
     guest_id TEXT NOT NULL, items TEXT NOT NULL, invoice_id TEXT, created_at INTEGER NOT NULL,
     confirmed_invoice_id TEXT
   );
   CREATE TABLE holds (
     booking_id TEXT PRIMARY KEY REFERENCES bookings(id), reservation_id TEXT NOT NULL, center_id TEXT NOT NULL,
     therapist_id TEXT NOT NULL, start_local TEXT NOT NULL, end_local TEXT NOT NULL, expires_at INTEGER NOT NULL
   );
   CREATE INDEX holds_center ON holds(center_id, therapist_id);
   CREATE TABLE invoices (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, number INTEGER NOT NULL, center_id TEXT NOT NULL,
     guest_id TEXT NOT NULL, booking_id TEXT, status INTEGER NOT NULL DEFAULT 0, is_closed INTEGER NOT NULL DEFAULT 0,
     campaign_code TEXT, created_at INTEGER NOT NULL
   );
   CREATE TABLE invoice_items (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, invoice_id TEXT NOT NULL REFERENCES invoices(id),
     service_id TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, price REAL NOT NULL,
     discount REAL NOT NULL DEFAULT 0, removed INTEGER NOT NULL DEFAULT 0, comments TEXT, position INTEGER NOT NULL
   );
   CREATE TABLE appointments (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, invoice_id TEXT NOT NULL, invoice_item_id TEXT NOT NULL,
     center_id TEXT NOT NULL, guest_id TEXT NOT NULL, service_id TEXT NOT NULL, therapist_id TEXT NOT NULL,
     start_local TEXT NOT NULL, end_local TEXT NOT NULL, status INTEGER NOT NULL DEFAULT 0, progress INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX appointments_therapist ON appointments(therapist_id, start_local);
   CREATE INDEX appointments_guest ON appointments(guest_id);
   CREATE TABLE cards (
     account_id TEXT PRIMARY KEY, guest_id TEXT NOT NULL, center_id TEXT NOT NULL, brand TEXT NOT NULL,
     last_four TEXT NOT NULL, expiry TEXT NOT NULL, billing TEXT, created_at INTEGER NOT NULL
   );
   CREATE TABLE card_sessions (
     token TEXT PRIMARY KEY, guest_id TEXT NOT NULL, center_id TEXT NOT NULL, redirect_uri TEXT NOT NULL,
     created_at INTEGER NOT NULL, completed INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE transactions (
     id TEXT PRIMARY KEY, invoice_id TEXT NOT NULL, account_id TEXT NOT NULL, amount REAL NOT NULL, created_at INTEGER NOT NULL
   );
   CREATE TABLE campaigns (code TEXT PRIMARY KEY, rules TEXT NOT NULL, valid_from TEXT, valid_to TEXT);
   CREATE TABLE reasons (id TEXT PRIMARY KEY, name TEXT NOT NULL);`,
  `ALTER TABLE cards ADD COLUMN declines_charges INTEGER NOT NULL DEFAULT 0;`,
  // A card whose charges need 3-D Secure, and the verification pages such a charge opens.
  `ALTER TABLE cards ADD COLUMN requires_3ds INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE payment_sessions (
     token TEXT PRIMARY KEY, invoice_id TEXT NOT NULL, account_id TEXT NOT NULL, redirect_uri TEXT NOT NULL,
     created_at INTEGER NOT NULL, completed INTEGER NOT NULL DEFAULT 0
   );`,
  `CREATE TABLE referral_sources (id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, name TEXT NOT NULL);`,
  // Reasons of every kind (a guest's picker keeps appointment cancels, active and online), and what
  // a cancel of an invoice recorded.
  `ALTER TABLE reasons ADD COLUMN object_type INTEGER NOT NULL DEFAULT 2;
   ALTER TABLE reasons ADD COLUMN action_type INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE reasons ADD COLUMN active INTEGER NOT NULL DEFAULT 1;
   ALTER TABLE reasons ADD COLUMN show_in_online_booking INTEGER NOT NULL DEFAULT 1;
   ALTER TABLE invoices ADD COLUMN is_cancelled INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE invoices ADD COLUMN cancel_reason_id TEXT;
   ALTER TABLE invoices ADD COLUMN cancel_comments TEXT;
   ALTER TABLE appointments ADD COLUMN comments TEXT;`,
  // Whether the guest asked for the appointment's nurse: Zenoti reports only a requested nurse.
  `ALTER TABLE appointments ADD COLUMN therapist_requested INTEGER NOT NULL DEFAULT 0;`,
  // Membership plans and the clinics that sell them; guests' memberships (Zenoti's status codes: 1
  // Active, 2 InActive, 3 Frozen, 4 Cancelled, 5 Expired, 6 Closed, 7 NotStarted, 8 Suspended, 9
  // Refund, 10 Deleted, 12 Failed; recurrence_status 1 renewing, 0 not), credits in dollars; and
  // loyalty points, one row each earned (+) or redeemed (-).
  `CREATE TABLE membership_plans (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, code TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
     description TEXT NOT NULL, price REAL NOT NULL, payment_frequency TEXT NOT NULL, is_recurring INTEGER NOT NULL,
     terms TEXT, covered_services TEXT NOT NULL, display_order INTEGER NOT NULL
   );
   CREATE TABLE center_membership_plans (
     center_id TEXT NOT NULL REFERENCES centers(id), membership_id TEXT NOT NULL REFERENCES membership_plans(id),
     sale_price REAL NOT NULL, PRIMARY KEY (center_id, membership_id)
   );
   CREATE TABLE guest_memberships (
     user_membership_id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, guest_id TEXT NOT NULL REFERENCES guests(id),
     membership_id TEXT NOT NULL REFERENCES membership_plans(id), center_id TEXT NOT NULL REFERENCES centers(id),
     status INTEGER NOT NULL, recurrence_status INTEGER NOT NULL, member_since TEXT NOT NULL, expiry_date TEXT,
     credit_total REAL NOT NULL DEFAULT 0, credit_service REAL NOT NULL DEFAULT 0, credit_product REAL NOT NULL DEFAULT 0,
     credit_other REAL NOT NULL DEFAULT 0, invoice_id TEXT NOT NULL, invoice_no TEXT NOT NULL, receipt_no TEXT NOT NULL,
     invoice_item_id TEXT NOT NULL, created_at INTEGER NOT NULL
   );
   CREATE INDEX guest_memberships_guest ON guest_memberships(guest_id);
   CREATE TABLE guest_points (
     id INTEGER PRIMARY KEY AUTOINCREMENT, guest_id TEXT NOT NULL REFERENCES guests(id), date TEXT NOT NULL,
     points INTEGER NOT NULL, reason TEXT NOT NULL
   );
   CREATE INDEX guest_points_guest ON guest_points(guest_id, date);`,
  // Sales: the packages and gift-card templates the clinics sell and the occasions a card is for;
  // a sale invoice's lines are invoice_items of kind membership, package or giftcard. A gift card's
  // order (recipient, message, when to send it) waits on its line until the invoice is closed,
  // which issues the card, the guest's package (sessions per service, redeemed on visit lines) or
  // the membership (the card that paid for a renewing one kept for its renewals). The gift-card
  // emails are the sandbox's outbox, one per card.
  `CREATE TABLE packages (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, code TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
     description TEXT NOT NULL, validity_days INTEGER, covered_services TEXT NOT NULL, display_order INTEGER NOT NULL
   );
   CREATE TABLE center_packages (
     center_id TEXT NOT NULL REFERENCES centers(id), package_id TEXT NOT NULL REFERENCES packages(id),
     sale_price REAL NOT NULL, PRIMARY KEY (center_id, package_id)
   );
   CREATE TABLE giftcard_templates (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, code TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
     value REAL, min_amount REAL, max_amount REAL, validity_days INTEGER, display_order INTEGER NOT NULL
   );
   CREATE TABLE center_giftcard_templates (
     center_id TEXT NOT NULL REFERENCES centers(id), template_id TEXT NOT NULL REFERENCES giftcard_templates(id),
     PRIMARY KEY (center_id, template_id)
   );
   CREATE TABLE giftcard_occasions (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, name TEXT NOT NULL, display_order INTEGER NOT NULL
   );
   ALTER TABLE invoices ADD COLUMN notes TEXT;
   ALTER TABLE invoice_items ADD COLUMN redeemed_user_package_id TEXT;
   ALTER TABLE guest_memberships ADD COLUMN recurring_account_id TEXT;
   CREATE TABLE giftcard_orders (
     invoice_item_id TEXT PRIMARY KEY REFERENCES invoice_items(id), invoice_id TEXT NOT NULL REFERENCES invoices(id),
     template_id TEXT NOT NULL REFERENCES giftcard_templates(id), value REAL NOT NULL, recipient_name TEXT NOT NULL,
     recipient_email TEXT NOT NULL, message TEXT NOT NULL, occasion_id TEXT NOT NULL REFERENCES giftcard_occasions(id),
     image_id TEXT, schedule_time TEXT
   );
   CREATE TABLE guest_packages (
     user_package_id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, guest_id TEXT NOT NULL REFERENCES guests(id),
     center_id TEXT NOT NULL REFERENCES centers(id), package_id TEXT NOT NULL REFERENCES packages(id),
     invoice_id TEXT NOT NULL REFERENCES invoices(id), invoice_item_id TEXT NOT NULL, start_date TEXT NOT NULL, end_date TEXT,
     price REAL NOT NULL, created_at INTEGER NOT NULL
   );
   CREATE INDEX guest_packages_guest ON guest_packages(guest_id);
   CREATE TABLE guest_package_services (
     user_package_id TEXT NOT NULL REFERENCES guest_packages(user_package_id), service_id TEXT NOT NULL REFERENCES services(id),
     quantity INTEGER NOT NULL, redeemed INTEGER NOT NULL DEFAULT 0, position INTEGER NOT NULL,
     PRIMARY KEY (user_package_id, service_id)
   );
   CREATE TABLE gift_cards (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, number TEXT NOT NULL UNIQUE, template_id TEXT NOT NULL REFERENCES giftcard_templates(id),
     center_id TEXT NOT NULL REFERENCES centers(id), value REAL NOT NULL, balance REAL NOT NULL,
     buyer_guest_id TEXT NOT NULL REFERENCES guests(id), recipient_name TEXT NOT NULL, recipient_email TEXT NOT NULL,
     recipient_email_key TEXT NOT NULL, message TEXT NOT NULL, occasion_id TEXT NOT NULL, schedule_time TEXT,
     issued_on TEXT NOT NULL, expiry_date TEXT, invoice_id TEXT NOT NULL REFERENCES invoices(id), invoice_item_id TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX gift_cards_buyer ON gift_cards(buyer_guest_id);
   CREATE INDEX gift_cards_recipient ON gift_cards(recipient_email_key);
   CREATE INDEX gift_cards_invoice ON gift_cards(invoice_id);
   CREATE TABLE giftcard_emails (
     gift_card_id TEXT PRIMARY KEY REFERENCES gift_cards(id), to_email TEXT NOT NULL, to_email_key TEXT NOT NULL,
     to_name TEXT NOT NULL, card_number TEXT NOT NULL, value REAL NOT NULL, message TEXT NOT NULL, occasion_name TEXT NOT NULL,
     buyer_name TEXT NOT NULL, deliver_at INTEGER NOT NULL, queued_at INTEGER NOT NULL
   );
   CREATE INDEX giftcard_emails_to ON giftcard_emails(to_email_key, deliver_at);`,
  // Member prices: a plan's percent off its members' other treatments and add-ons (the seed sets it
  // on the plans a sandbox made before this has).
  `ALTER TABLE membership_plans ADD COLUMN service_discount_percent INTEGER NOT NULL DEFAULT 0;`,
  // Guest coupons (decision 044): the discount's benefits kept with each, as campaigns keep theirs.
  `CREATE TABLE coupons (
     id TEXT PRIMARY KEY, id_key TEXT NOT NULL UNIQUE, number TEXT NOT NULL UNIQUE, guest_id TEXT NOT NULL, center_id TEXT NOT NULL,
     description TEXT NOT NULL, rules TEXT NOT NULL, issue_date TEXT NOT NULL, expiry_date TEXT, redeemable_by_all INTEGER NOT NULL DEFAULT 0,
     redeemed_invoice_id TEXT, created_at INTEGER NOT NULL
   );
   CREATE INDEX coupons_guest ON coupons (guest_id);`,
];

/** Time-zone ids as Zenoti numbers them, for the names the seed uses. */
const timeZoneIds: Record<string, number> = {
  "Eastern Standard Time": 20,
  "Central Standard Time": 11,
  "Mountain Standard Time": 10,
  "US Mountain Standard Time": 15,
  "Pacific Standard Time": 4,
};

/**
 * Opens the sandbox's database, migrated and seeded. `seedNew` runs once, on a database this call
 * created: what is seeded only into a new sandbox (the demo guest's history).
 */
export function openSandboxDb(file: string, seedNew?: (db: SandboxDb) => void): SandboxDb {
  if (file !== ":memory:") preparePrivateFile(file);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  const created = db.pragma("user_version", { simple: true }) === 0;
  migrate(db);
  seed(db);
  if (created) seedNew?.(db);
  return db;
}

function migrate(db: SandboxDb) {
  const version = db.pragma("user_version", { simple: true }) as number;
  for (let i = version; i < migrations.length; i++) {
    db.transaction(() => {
      db.exec(migrations[i]);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}

function roundPrice(value: number): number {
  // Clinic prices end in whole dollars.
  return Math.round(value);
}

/** Seeds what later migrations added: nurses' days off, campaigns, cancellation reasons. */
function seedBooking(db: SandboxDb) {
  const seeded = db.prepare("SELECT COUNT(*) AS n FROM campaigns").get() as { n: number };
  if (seeded.n > 0) return;
  db.transaction(() => {
    // Each nurse has one weekday off, so a clinic's nurses are not all free on every day.
    const nurses = db.prepare("SELECT id, code FROM therapists ORDER BY code").all() as { id: string; code: string }[];
    for (const nurse of nurses) {
      const index = Number(nurse.code.split("-N")[1] ?? 1);
      db.prepare("UPDATE therapists SET day_off = ? WHERE id = ?").run(nurseDayOff(index - 1), nurse.id);
    }
    for (const promo of seedPromos) {
      db.prepare("INSERT INTO campaigns (code, rules, valid_from, valid_to) VALUES (?, ?, ?, ?)").run(
        promo.code,
        JSON.stringify(campaignRulesOf(promo)),
        promo.validFrom,
        promo.validTo,
      );
    }
    for (const reason of seedReasons)
      db.prepare("INSERT INTO reasons (id, name) VALUES (?, ?)").run(seedGuid(`reason:${reason}`), reason);
  })();
}

/** A seeded promo's campaign benefits, by service id (the back end's own rules where they differ). */
function campaignRulesOf(promo: (typeof seedPromos)[number]) {
  return ("campaignRules" in promo ? promo.campaignRules : promo.rules).map((r) => ({
    discount_type: r.discount_type,
    discount_value: r.discount_value,
    service_id: r.service ? seedGuid(`service:${r.service}`) : null,
    service_type: r.service_type,
  }));
}

/**
 * The campaigns of the growth offers (the referral's FT50RAF, the price and offer tiers), added to a
 * sandbox made before them too: each code once.
 */
function seedGrowthCampaigns(db: SandboxDb) {
  const insert = db.prepare(
    "INSERT OR IGNORE INTO campaigns (code, rules, valid_from, valid_to) VALUES (?, ?, NULL, NULL)",
  );
  const rule = (charge: number, service: string) => ({
    discount_type: "final_price",
    discount_value: charge,
    service_id: seedGuid(`service:${service}`),
    service_type: "service",
  });
  db.transaction(() => {
    for (const promo of seedPromos.filter((p) => p.code === "FT50RAF"))
      insert.run(promo.code, JSON.stringify(promo.rules.map((r) => rule(r.discount_value, r.service))));
    for (const tier of seedPriceTiers)
      insert.run(tier.code, JSON.stringify(tier.services.map((service) => rule(tier.charge, service))));
    for (const tier of seedOfferTiers.filter((t) => t.percent > 0)) {
      const percentOff = (service: string) => ({
        discount_type: "percentage",
        discount_value: tier.percent,
        service_id: seedGuid(`service:${service}`),
        service_type: "service",
      });
      insert.run(tier.code, JSON.stringify(tier.services.map(percentOff)));
    }
    const later = db.prepare("INSERT OR IGNORE INTO campaigns (code, rules, valid_from, valid_to) VALUES (?, ?, ?, ?)");
    for (const promo of seedPromos.filter((p) => (LATER_PROMO_CODES as readonly string[]).includes(p.code))) {
      later.run(promo.code, JSON.stringify(campaignRulesOf(promo)), promo.validFrom, promo.validTo);
    }
  })();
}

function seed(db: SandboxDb) {
  seedCatalog(db);
  seedLaterServices(db);
  seedBooking(db);
  seedGrowthCampaigns(db);
  seedGuestSettings(db);
  seedStaffReasonRows(db);
  seedMembershipPlanRows(db);
  seedSaleRows(db);
}

/** Writes one treatment or add-on of the seed, in the seed's order; its id. */
function insertServiceRow(db: SandboxDb, service: (typeof seedServices)[number]): string {
  const id = seedGuid(`service:${service.code}`);
  db.prepare(
    `INSERT INTO services (id, id_key, code, name, description, category_name, sub_category_name, duration,
       recovery_time, is_add_on, add_on_codes, display_order)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    normalizeId(id),
    service.code,
    service.name,
    service.description,
    service.category,
    service.subCategory ?? null,
    service.duration,
    service.recoveryTime,
    service.isAddOn ? 1 : 0,
    JSON.stringify(service.addOns ?? []),
    seedServices.indexOf(service) + 1,
  );
  return id;
}

/**
 * Treatments and add-ons the seed gained after a sandbox was made (the returning facial's own
 * enhancements, decision 045): each added once, priced at every clinic, and the seed's add-on lists
 * written again so the treatments offer them.
 */
function seedLaterServices(db: SandboxDb) {
  const known = new Set((db.prepare("SELECT code FROM services").all() as { code: string }[]).map((r) => r.code));
  const missing = seedServices.filter((s) => !known.has(s.code));
  if (missing.length === 0) return;
  const centers = db.prepare("SELECT id, code FROM centers").all() as { id: string; code: string }[];
  const priceLevel = new Map(seedCenters.map((c) => [c.code, c.priceLevel]));
  db.transaction(() => {
    for (const service of missing) {
      const id = insertServiceRow(db, service);
      for (const center of centers) {
        db.prepare("INSERT INTO center_services (center_id, service_id, sale_price) VALUES (?, ?, ?)").run(
          center.id,
          id,
          roundPrice(service.price * (priceLevel.get(center.code) ?? 1)),
        );
      }
    }
    const setAddOns = db.prepare("UPDATE services SET add_on_codes = ? WHERE code = ?");
    for (const service of seedServices) setAddOns.run(JSON.stringify(service.addOns ?? []), service.code);
  })();
}

/**
 * The packages (priced per clinic as its treatments are), gift-card templates and occasions, sold
 * at every clinic; each list once, when it is absent.
 */
function seedSaleRows(db: SandboxDb) {
  const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const services = new Set(seedServices.map((s) => s.code));
  const centers = db.prepare("SELECT id, code FROM centers ORDER BY sort_order").all() as {
    id: string;
    code: string;
  }[];
  const priceLevel = new Map(seedCenters.map((c) => [c.code, c.priceLevel]));
  db.transaction(() => {
    if (count("packages") === 0) {
      const insert = db.prepare(
        "INSERT INTO packages (id, id_key, code, name, description, validity_days, covered_services, display_order) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      );
      const sell = db.prepare("INSERT INTO center_packages (center_id, package_id, sale_price) VALUES (?, ?, ?)");
      seedPackages.forEach((pkg, index) => {
        for (const cover of pkg.covers) {
          if (!services.has(cover.service))
            throw new Error(`Package ${pkg.code} covers an unknown service ${cover.service}`);
        }
        const id = seedGuid(`package:${pkg.code}`);
        insert.run(
          id,
          normalizeId(id),
          pkg.code,
          pkg.name,
          pkg.description,
          pkg.validityDays,
          JSON.stringify(pkg.covers),
          index + 1,
        );
        for (const center of centers)
          sell.run(center.id, id, roundPrice(pkg.price * (priceLevel.get(center.code) ?? 1)));
      });
    }
    if (count("giftcard_templates") === 0) {
      const insert = db.prepare(
        "INSERT INTO giftcard_templates (id, id_key, code, name, value, min_amount, max_amount, validity_days, display_order) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      );
      const sell = db.prepare("INSERT INTO center_giftcard_templates (center_id, template_id) VALUES (?, ?)");
      seedGiftCardTemplates.forEach((template, index) => {
        const id = seedGuid(`giftcard-template:${template.code}`);
        const custom = "custom" in template ? template.custom : null;
        insert.run(
          id,
          normalizeId(id),
          template.code,
          template.name,
          "value" in template ? template.value : null,
          custom?.min ?? null,
          custom?.max ?? null,
          GIFT_CARD_VALIDITY_DAYS,
          index + 1,
        );
        for (const center of centers) sell.run(center.id, id);
      });
    }
    if (count("giftcard_occasions") === 0) {
      const insert = db.prepare("INSERT INTO giftcard_occasions (id, id_key, name, display_order) VALUES (?, ?, ?, ?)");
      seedGiftCardOccasions.forEach((name, index) => {
        const id = seedGuid(`giftcard-occasion:${name}`);
        insert.run(id, normalizeId(id), name, index + 1);
      });
    }
  })();
}

/**
 * The membership plans, sold at every clinic at their list price, once; and their member prices,
 * which plans seeded before them get too.
 */
function seedMembershipPlanRows(db: SandboxDb) {
  const seeded = db.prepare("SELECT COUNT(*) AS n FROM membership_plans").get() as { n: number };
  if (seeded.n > 0) {
    const setPercent = db.prepare(
      "UPDATE membership_plans SET service_discount_percent = ? WHERE code = ? AND service_discount_percent != ?",
    );
    db.transaction(() => {
      for (const plan of seedMembershipPlans)
        setPercent.run(plan.serviceDiscountPercent, plan.code, plan.serviceDiscountPercent);
    })();
    return;
  }
  const services = new Map(seedServices.map((s) => [s.code, s]));
  const insertPlan = db.prepare(
    `INSERT INTO membership_plans (id, id_key, code, name, description, price, payment_frequency, is_recurring, terms, covered_services, display_order,
       service_discount_percent)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSale = db.prepare(
    "INSERT INTO center_membership_plans (center_id, membership_id, sale_price) VALUES (?, ?, ?)",
  );
  const centers = db.prepare("SELECT id FROM centers ORDER BY sort_order").all() as { id: string }[];
  db.transaction(() => {
    seedMembershipPlans.forEach((plan, index) => {
      for (const cover of plan.covers) {
        if (!services.has(cover.service))
          throw new Error(`Membership plan ${plan.code} covers an unknown service ${cover.service}`);
      }
      const percent = plan.serviceDiscountPercent;
      if (!Number.isInteger(percent) || percent < 0 || percent > 100)
        throw new Error(`Membership plan ${plan.code} has a member discount of ${percent}%`);
      const id = seedGuid(`membership:${plan.code}`);
      insertPlan.run(
        id,
        normalizeId(id),
        plan.code,
        plan.name,
        plan.description,
        plan.price,
        plan.paymentFrequency,
        plan.recurring ? 1 : 0,
        plan.terms,
        JSON.stringify(plan.covers),
        index + 1,
        plan.serviceDiscountPercent,
      );
      for (const center of centers) insertSale.run(center.id, id, plan.price);
    });
  })();
}

/** The reasons a guest must not be offered (see seedStaffReasons), once. */
function seedStaffReasonRows(db: SandboxDb) {
  const insert = db.prepare(
    "INSERT OR IGNORE INTO reasons (id, name, object_type, action_type, active, show_in_online_booking) VALUES (?, ?, ?, ?, ?, ?)",
  );
  db.transaction(() => {
    for (const r of seedStaffReasons)
      insert.run(seedGuid(`reason:${r.name}`), r.name, r.objectType, r.actionType, r.active ? 1 : 0, r.online ? 1 : 0);
  })();
}

/** Seeds the organisation's referral sources and the guest availability is read through. */
function seedGuestSettings(db: SandboxDb) {
  const seeded = db.prepare("SELECT COUNT(*) AS n FROM referral_sources").get() as { n: number };
  if (seeded.n > 0) return;
  db.transaction(() => {
    for (const name of seedReferralSources) {
      const id = seedGuid(`referral-source:${name}`);
      db.prepare("INSERT INTO referral_sources (id, id_key, name) VALUES (?, ?, ?)").run(id, normalizeId(id), name);
    }
    const guest = SEED_AVAILABILITY_GUEST;
    if (db.prepare("SELECT 1 FROM guests WHERE id_key = ?").get(normalizeId(guest.id))) return;
    const centerId = seedGuid(`center:${guest.centerCode}`);
    const payload = {
      center_id: centerId,
      personal_info: {
        first_name: guest.firstName,
        last_name: guest.lastName,
        email: guest.email,
        user_name: guest.email,
      },
      tags: ["Webstore"],
    };
    db.prepare(
      `INSERT INTO guests (id, id_key, center_id, code, first_name, last_name, email, email_key, phone, payload, created_at)
       VALUES (?, ?, ?, 'G10000', ?, ?, ?, ?, ?, ?, 0)`,
    ).run(
      guest.id,
      normalizeId(guest.id),
      centerId,
      guest.firstName,
      guest.lastName,
      guest.email,
      guest.email.toLowerCase(),
      guest.phone,
      JSON.stringify(payload),
    );
  })();
}

function seedCatalog(db: SandboxDb) {
  const seeded = db.prepare("SELECT COUNT(*) AS n FROM centers").get() as { n: number };
  if (seeded.n > 0) return;
  const insertCenter = db.prepare(
    `INSERT INTO centers (id, id_key, code, name, display_name, description, address_1, address_2, city,
       state_code, state_name, zip_code, phone, email, latitude, longitude, time_zone_id, time_zone_name,
       working_hours, prepaid, sort_order)
     VALUES (@id, @id_key, @code, @name, @display_name, @description, @address_1, NULL, @city, @state_code,
       @state_name, @zip_code, @phone, @email, @latitude, @longitude, @time_zone_id, @time_zone_name,
       @working_hours, @prepaid, @sort_order)`,
  );
  const insertTherapist = db.prepare(
    `INSERT INTO therapists (id, id_key, center_id, code, first_name, last_name, gender, job_name)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertPrice = db.prepare("INSERT INTO center_services (center_id, service_id, sale_price) VALUES (?, ?, ?)");

  db.transaction(() => {
    for (const service of seedServices) insertServiceRow(db, service);
    seedCenters.forEach((center, index) => {
      const id = seedGuid(`center:${center.code}`);
      insertCenter.run({
        id,
        id_key: normalizeId(id),
        code: center.code,
        name: `Glow Clinic ${center.name}`,
        display_name: `Glow Clinic ${center.name}`,
        description: `Laser facials, peels, laser hair removal and sculpting in ${center.city}, ${center.stateCode}.`,
        address_1: center.address1,
        city: center.city,
        state_code: center.stateCode,
        state_name: center.stateName,
        zip_code: center.zip,
        phone: center.phone,
        email: `${center.code.toLowerCase()}@glowclinic.example`,
        latitude: center.latitude,
        longitude: center.longitude,
        time_zone_id: timeZoneIds[center.timeZone] ?? 0,
        time_zone_name: center.timeZone,
        working_hours: JSON.stringify(seedWorkingHours),
        prepaid: center.prepaid ? 1 : 0,
        sort_order: index + 1,
      });
      center.nurses.forEach((nurse, n) => {
        const [first, ...rest] = nurse.split(" ");
        const therapistId = seedGuid(`therapist:${center.code}:${n}`);
        insertTherapist.run(
          therapistId,
          normalizeId(therapistId),
          id,
          `${center.code}-N${n + 1}`,
          first,
          rest.join(" "),
          "2",
          "Aesthetic Nurse",
        );
      });
      for (const service of seedServices) {
        insertPrice.run(id, seedGuid(`service:${service.code}`), roundPrice(service.price * center.priceLevel));
      }
    });
  })();
}
