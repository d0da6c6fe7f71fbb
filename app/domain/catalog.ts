import type { Cents } from "./money";

/** The clinic catalog as the app sees it: our own shapes, never the vendor's payloads. */

export type WorkingDay = {
  /** 0 = Sunday ... 6 = Saturday. */
  dayOfWeek: number;
  /** Local wall-clock "HH:mm", or null when closed. */
  opens: string | null;
  closes: string | null;
};

export type Center = {
  id: string;
  code: string;
  name: string;
  slug: string;
  description: string;
  address: { line1: string; line2: string | null; city: string; state: string; zip: string };
  phone: string;
  email: string;
  latitude: number;
  longitude: number;
  /** IANA time zone, e.g. "America/Chicago". */
  timeZone: string;
  workingHours: WorkingDay[];
};

/**
 * A clinic whose time zone no one has named (decision 035): shown with its address and phone, never
 * booked online, since its times could not be told right.
 */
export type ClinicWithoutTimeZone = Omit<Center, "timeZone"> & { zoneId: number | null };

/** The back end's clinics: those that can be booked online, and those refused for want of a time zone. */
export type CenterList = { centers: Center[]; withoutTimeZone: ClinicWithoutTimeZone[] };

export type Service = {
  id: string;
  code: string;
  name: string;
  displayName: string;
  description: string;
  category: string;
  subCategory: string | null;
  durationMinutes: number;
  recoveryMinutes: number;
  /** List price at this clinic. */
  price: Cents;
  isAddOn: boolean;
  addOnIds: string[];
  canBook: boolean;
  /** The back end's catalog picture (Zenoti's `image_paths`, read with `expand=image_paths`), as it gave it. */
  imageUrl: string | null;
};

export type Therapist = {
  id: string;
  firstName: string;
  lastName: string;
  displayName: string;
  jobTitle: string;
  /** The employee's picture in the back end (Zenoti's `vanity_image_url`), when it sends one. */
  imageUrl: string | null;
};

/** URL slug of a clinic: its name without the brand prefix, e.g. "austin-downtown". */
export function centerSlug(name: string): string {
  return name
    .replace(/^glow clinic\s+/i, "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Service names carry this marker for add-on enhancements (spec: "the addon marker"). */
export const ADDON_MARKER = "addon";

/** An add-on enhancement of a facial, as opposed to a treatment area or a peel add-on. */
export function isEnhancement(service: Pick<Service, "isAddOn" | "name">): boolean {
  return service.isAddOn && service.name.toLowerCase().includes(ADDON_MARKER);
}

/** A back-end id as compared: Zenoti ids match whatever their case, with or without dashes. */
export function idKey(id: string): string {
  return id.replace(/-/g, "").toLowerCase();
}

export function sameId(a: string, b: string): boolean {
  return idKey(a) === idKey(b);
}
