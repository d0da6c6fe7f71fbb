import { z } from "zod";
import { defineSchema } from "~/lib/define-schema";
import { BASE_TAGS } from "./guest";

/**
 * Where a visit came from (spec sections 1, 3 and 6): a friend's referral code, a partner
 * (partnerType), an affiliate's ad click (Impact's irclickid) and a landing-page tag, read from the
 * landing URL and kept for the visit in the encrypted session. A value that is too long or has odd
 * characters is ignored, never an error: these URLs are built by ad networks and partners.
 */
export type VisitAttribution = {
  /** A referral code, upper case. */
  ref?: string;
  /** The partner, upper case (partnerPricing is looked up by it). */
  partner?: string;
  /** The ad-click id and when it landed (milliseconds since the epoch). */
  click?: { id: string; at: number };
  /** The landing page's tag, sent to the back end as one of the guest's tags. */
  tag?: string;
};

/** The URL parameters read, by what the earlier client called them. */
export const ATTRIBUTION_PARAMS = {
  partner: "partnerType",
  click: "irclickid",
  tag: "landingPageTag",
  ref: "ref",
} as const;

/** How long an ad click is credited with a first treatment (Impact's default window). */
export const ATTRIBUTION_WINDOW_DAYS = 30;
export const ATTRIBUTION_WINDOW_MS = ATTRIBUTION_WINDOW_DAYS * 24 * 60 * 60 * 1000;

const PARTNER = /^[A-Za-z0-9_-]{1,32}$/;
/** Impact's click ids are URL-safe tokens; 128 characters is well above any seen. */
const CLICK_ID = /^[A-Za-z0-9._~-]{1,128}$/;
const TAG = /^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$/;

/** A referral code as shown and shared: a name part and four characters, e.g. "MIA-7K3Q". */
export const REFERRAL_CODE = /^[A-Z]{1,10}-[2-9A-HJ-NP-Z]{4}$/;

export function normalizeReferralCode(raw: string): string {
  return raw.trim().toUpperCase();
}

export function isReferralCode(raw: string): boolean {
  return REFERRAL_CODE.test(normalizeReferralCode(raw));
}

/**
 * What a landing URL says about the visit, merged over what the visit already had: a new value
 * replaces the old one of its kind, a missing or unusable one leaves it. Null when the URL carries
 * nothing usable (so nothing is written).
 */
export function attributionFromUrl(
  params: URLSearchParams,
  now: number,
  current: VisitAttribution | undefined,
): VisitAttribution | null {
  const partner = params.get(ATTRIBUTION_PARAMS.partner)?.trim();
  const click = params.get(ATTRIBUTION_PARAMS.click)?.trim();
  const tag = params.get(ATTRIBUTION_PARAMS.tag)?.trim();
  const ref = params.get(ATTRIBUTION_PARAMS.ref);
  const found: VisitAttribution = {};
  if (partner && PARTNER.test(partner)) found.partner = partner.toUpperCase();
  if (click && CLICK_ID.test(click))
    found.click = current?.click?.id === click ? current.click : { id: click, at: now };
  if (tag && TAG.test(tag)) found.tag = tag;
  if (ref && isReferralCode(ref)) found.ref = normalizeReferralCode(ref);
  if (Object.keys(found).length === 0) return null;
  return { ...current, ...found };
}

/** The session's attribution, read defensively: a field in another shape is dropped. */
export const VisitAttributionSchema = defineSchema(() =>
  z.object({
    ref: z.string().regex(REFERRAL_CODE).optional().catch(undefined),
    partner: z.string().regex(PARTNER).optional().catch(undefined),
    click: z
      .object({ id: z.string().regex(CLICK_ID), at: z.number().int().nonnegative() })
      .optional()
      .catch(undefined),
    tag: z.string().regex(TAG).optional().catch(undefined),
  }),
);

export function readAttribution(value: unknown): VisitAttribution {
  const parsed = VisitAttributionSchema.safeParse(value ?? {});
  if (!parsed.success) return {};
  return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as VisitAttribution;
}

/** The click's attribution window has ended. */
export function clickExpired(clickedAt: number, now: number): boolean {
  return now - clickedAt > ATTRIBUTION_WINDOW_MS;
}

/** A guest who made a profile (registered) and has not booked yet. */
export const TAG_PROFILE = "NBF-PROFILE";
/** A guest who reached the payment step of a booking. */
export const TAG_PAYMENT = "NBF-PAYMENT";

/**
 * A new guest's tags (spec section 5): always Booking Lead and NBF, plus at most two more: the
 * landing page's tag when the visit has one, and where the guest was made (a registration's
 * profile, or a booking's payment step).
 */
export function guestTags(input: { landingPageTag?: string; stage: "profile" | "payment" }): string[] {
  const extras = [input.landingPageTag, input.stage === "profile" ? TAG_PROFILE : TAG_PAYMENT].filter(
    (t): t is string => Boolean(t),
  );
  return [
    ...BASE_TAGS,
    ...[...new Set(extras)].filter((t) => !(BASE_TAGS as readonly string[]).includes(t)).slice(0, 2),
  ];
}
