import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { seedCenters, seedServices, seedWorkingHours } from "./seed-data";

export type SandboxDb = Database.Database;

/** A stable GUID from a seed name, so the seeded chain has the same ids on every machine. */
export function seedGuid(name: string): string {
  const hex = createHash("sha256").update(`spa-sandbox:${name}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Zenoti ids compare case-insensitively and with or without dashes. */
export function normalizeId(id: string): string {
  return id.replace(/-/g, "").toLowerCase();
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
];

/** Time-zone ids as Zenoti numbers them, for the names the seed uses. */
const timeZoneIds: Record<string, number> = {
  "Eastern Standard Time": 20,
  "Central Standard Time": 11,
  "Mountain Standard Time": 10,
  "US Mountain Standard Time": 15,
  "Pacific Standard Time": 4,
};

export function openSandboxDb(file: string): SandboxDb {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrate(db);
  seed(db);
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

function seed(db: SandboxDb) {
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
  const insertService = db.prepare(
    `INSERT INTO services (id, id_key, code, name, description, category_name, sub_category_name, duration,
       recovery_time, is_add_on, add_on_codes, display_order)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertPrice = db.prepare("INSERT INTO center_services (center_id, service_id, sale_price) VALUES (?, ?, ?)");

  db.transaction(() => {
    seedServices.forEach((service, index) => {
      const id = seedGuid(`service:${service.code}`);
      insertService.run(
        id, normalizeId(id), service.code, service.name, service.description, service.category,
        service.subCategory ?? null, service.duration, service.recoveryTime, service.isAddOn ? 1 : 0,
        JSON.stringify(service.addOns ?? []), index + 1,
      );
    });
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
        insertTherapist.run(therapistId, normalizeId(therapistId), id, `${center.code}-N${n + 1}`, first, rest.join(" "), "2", "Aesthetic Nurse");
      });
      for (const service of seedServices) {
        insertPrice.run(id, seedGuid(`service:${service.code}`), roundPrice(service.price * center.priceLevel));
      }
    });
  })();
}
