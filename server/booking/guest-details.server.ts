import { href } from "react-router";
import type { Service } from "~/domain/catalog";
import { addOnsCarriedTo } from "~/domain/service-kinds";
import { guestTags, type VisitAttribution } from "~/domain/attribution";
import { BASE_TAGS, type GuestDetailsInput } from "~/domain/guest";
import { noteGuest } from "../accounts/existing-guest.server";
import {
  checkOneTimeCode,
  maskedContacts,
  sendOneTimeCode,
  type CodeRecipient,
} from "../accounts/one-time-codes.server";
import type { Services } from "../services";
import { logger } from "../observability/logger.server";
import type { SpaGuest } from "../spa/booking.server";
import {
  checkReferralFor,
  noteReferredGuest,
  recordReferral,
  referralNotBookedMessage,
  releaseReferral,
} from "../referrals/referrals.server";
import { isSpaError } from "../spa/errors.server";
import type { Draft } from "./draft.server";
import { clientTypeOf, returningVersionOf } from "../guests/holdings.server";
import { holdSlot, type HoldOutcome } from "./hold-slot.server";

/** Zenoti's codes for a duplicate email, an invalid email and an invalid mobile number. */
const ERROR_PAGE_FOR_CODE: Record<string, string> = {
  "442": "duplicate-email",
  "443": "invalid-email",
  "482": "invalid-mobile",
};

function errorPage(page: string): string {
  return `${href("/error")}?error=${page}&redirect=${page === "duplicate-email" ? "samesite" : "webstore"}`;
}

function pageForRefusal(code: string, message: string): string | null {
  return ERROR_PAGE_FOR_CODE[code] ?? (/duplicate|already exists/i.test(message) ? "duplicate-email" : null);
}

export type DetailsOutcome =
  /**
   * The details are the draft's (a held time's guest was updated, or a time was held with them).
   * `notice`: what the guest is told on the next page (a friend's code used up meanwhile).
   * `switched`: a returning client proved their record, and books the returning version of the
   * new-client treatment they chose before they were known.
   */
  | { kind: "saved"; draft: Draft; notice?: string; switched?: { from: string; to: string } }
  /** An existing client's record: a code went to the contact on file; the visitor proves it is theirs. */
  | { kind: "verify"; draft: Draft }
  /** The spec's error page for what the back end refused, with where it sends the guest next. */
  | { kind: "refused"; errorPage: string }
  /** Holding the chosen time did not work; the draft to keep comes with it. */
  | { kind: "not-held"; outcome: Exclude<HoldOutcome, { kind: "held" | "refused" }> }
  | { kind: "unavailable" };

/** `timeZone`: the clinic's IANA zone, which reads the hold's expiry. */
export type DetailsRequest = {
  draft: Draft;
  details: GuestDetailsInput;
  service: Service;
  timeZone: string;
  clientIp: string;
  /** Where the visit came from: a friend's referral code, an ad click, a landing tag. */
  attribution?: VisitAttribution;
};

/** Who the details belong to in the back end: the draft's own guest, an existing client, or no one yet. */
type Match = { kind: "own" } | { kind: "existing"; guest: SpaGuest } | { kind: "account" } | { kind: "none" };

async function matchGuest(services: Services, draft: Draft, details: GuestDetailsInput): Promise<Match> {
  const byEmail = await services.spa.findGuestsByEmail(details.email, draft.centerId);
  if (draft.guestId && byEmail.some((g) => g.id === draft.guestId)) return { kind: "own" };
  if (byEmail.length > 0)
    return (await services.stores.accounts.getByEmail(details.email))
      ? { kind: "account" }
      : { kind: "existing", guest: byEmail[0] };
  const byPhone = (await services.spa.findGuestsByPhone(details.phone, draft.centerId)).filter(
    (g) => g.id !== draft.guestId,
  );
  return byPhone.length > 0 ? { kind: "existing", guest: byPhone[0] } : { kind: "none" };
}

/**
 * The details step. A visitor with a held time (their guest is known) has that guest's profile
 * updated. A visitor who only chose a time is matched to the back end's records first: an email of
 * an account here goes to the duplicate-email page (sign in); a client the clinics already know by
 * email or mobile gets a code at the contact on file; anyone else gets a guest record with their
 * real name, email and mobile, and the chosen time is held for it.
 */
export async function submitBookingDetails(services: Services, request: DetailsRequest): Promise<DetailsOutcome> {
  const { draft, details } = request;
  try {
    if (draft.hold && draft.guestId) return await updateHeldGuest(services, draft, details);
    const match = await matchGuest(services, draft, details);
    if (match.kind === "account") return { kind: "refused", errorPage: errorPage("duplicate-email") };
    if (match.kind === "existing") return await startVerification(services, draft, details, match.guest);
    if (match.kind === "own")
      await services.spa.updateGuestProfile(draft.guestId!, { ...details, addTags: [...BASE_TAGS] });
    return await holdWithDetails(services, request, match.kind === "none");
  } catch (error) {
    if (!isSpaError(error)) throw error;
    const page = error.kind === "rejected" ? pageForRefusal(String(error.code), error.message) : null;
    if (page) return { kind: "refused", errorPage: errorPage(page) };
    logger.warn("guest details not saved", { kind: error.kind, status: error.status });
    return { kind: "unavailable" };
  }
}

async function updateHeldGuest(services: Services, draft: Draft, details: GuestDetailsInput): Promise<DetailsOutcome> {
  const existing = await services.spa.findGuestsByEmail(details.email, draft.centerId);
  if (existing.some((g) => g.id !== draft.guestId)) return { kind: "refused", errorPage: errorPage("duplicate-email") };
  await services.spa.updateGuestProfile(draft.guestId!, { ...details, addTags: [...BASE_TAGS] });
  await noteGuest(services, details.email, { id: draft.guestId! });
  return { kind: "saved", draft: { ...draft, details } };
}

/** Holds the chosen time under the draft's guest, or under a guest made now from the details. */
async function holdWithDetails(
  services: Services,
  request: DetailsRequest,
  makeGuest: boolean,
): Promise<DetailsOutcome> {
  const { draft, details, service, timeZone, clientIp, attribution } = request;
  // A friend's code is checked before the guest is made, so the back end's record names the referrer.
  const referral =
    makeGuest && attribution?.ref
      ? await checkReferralFor(services, attribution.ref, { email: details.email, isNewClient: true })
      : null;
  let referrer = referral?.ok ? referral.owner : null;
  let notice: string | undefined;
  if (referrer) {
    // The friend takes one of the code's places before the guest is made (decision 038); a code
    // used up since the check books them at the usual price, and says so.
    const claimed = await recordReferral(services, referrer, {
      email: details.email,
      firstName: details.firstName,
      guestId: null,
    });
    if (claimed !== "added") {
      notice = referralNotBookedMessage(claimed);
      referrer = null;
    }
  }
  const claim = referrer;
  const outcome = await holdSlot(services, {
    draft: { ...draft, details, verification: undefined },
    centerId: draft.centerId,
    service,
    slot: draft.slot!,
    date: draft.slot!.slice(0, 10),
    timeZone,
    clientIp,
    user: null,
    newGuest: makeGuest
      ? {
          centerId: draft.centerId,
          ...details,
          consents: { marketingEmail: false, marketingSms: false, transactionalEmail: true, transactionalSms: true },
          tags: guestTags({ landingPageTag: attribution?.tag, stage: "payment" }),
          referralSourceId: referrer ? (services.env.SPA_REFERRAL_SOURCE_ID ?? null) : null,
          referredByGuestId: referrer?.guestId ?? null,
        }
      : undefined,
  }).catch(async (error: unknown) => {
    if (claim) await releaseReferral(services, claim, details.email);
    throw error;
  });
  const guestId = outcome.kind === "refused" ? undefined : outcome.draft.guestId;
  // A claim whose guest was never made gives the code's place back.
  if (claim && !guestId) await releaseReferral(services, claim, details.email);
  if (outcome.kind === "refused" && referrer && /referr/i.test(outcome.message)) {
    // A referrer's guest the back end no longer knows must not lock the friend out: booked without it.
    logger.warn("referrer unknown to the back end; guest made without it", { code: outcome.code });
    return holdWithDetails(services, { ...request, attribution: { ...attribution, ref: undefined } }, makeGuest);
  }
  if (outcome.kind === "refused") {
    const page = pageForRefusal(outcome.code, outcome.message);
    if (page) return { kind: "refused", errorPage: errorPage(page) };
    logger.warn("guest record refused", { code: outcome.code });
    return { kind: "unavailable" };
  }
  // A password is set later with a one-time code (the guest flow).
  if (guestId) await noteGuest(services, details.email, { id: guestId });
  if (guestId && claim) await noteReferredGuest(services, details.email, guestId);
  if (outcome.kind === "held") return { kind: "saved", draft: outcome.draft, ...(notice ? { notice } : {}) };
  return { kind: "not-held", outcome };
}

/** Where an existing client's code goes and is kept: their contact on file, never what was typed. */
function codeTarget(guest: SpaGuest): { key: string; to: CodeRecipient } {
  return { key: guest.email ?? `guest:${guest.id}`, to: { email: guest.email, phone: guest.phone } };
}

async function startVerification(
  services: Services,
  draft: Draft,
  details: GuestDetailsInput,
  guest: SpaGuest,
): Promise<DetailsOutcome> {
  const { key, to } = codeTarget(guest);
  await sendOneTimeCode(services, key, to);
  return {
    kind: "verify",
    draft: { ...draft, guestId: undefined, details, verification: { guestId: guest.id, sentTo: maskedContacts(to) } },
  };
}

/** Sends the pending verification's code again (after the cooldown). */
export async function resendVerificationCode(services: Services, draft: Draft): Promise<"sent" | "cooldown" | "gone"> {
  const guest = draft.verification ? await services.spa.getGuest(draft.verification.guestId) : null;
  if (!guest) return "gone";
  const { key, to } = codeTarget(guest);
  return sendOneTimeCode(services, key, to);
}

export type VerifyOutcome = DetailsOutcome | { kind: "wrong-code"; message: string };

/**
 * The visitor proved the existing record is theirs: they book as that guest (no second record),
 * and the guest is noted under the email on file so that a password set later links to it.
 */
export async function completeVerification(
  services: Services,
  request: {
    draft: Draft;
    code: string;
    service: Service;
    catalog: readonly Service[];
    timeZone: string;
    clientIp: string;
  },
): Promise<VerifyOutcome> {
  const { draft } = request;
  const typed = draft.details!;
  try {
    const guest = await services.spa.getGuest(draft.verification!.guestId);
    if (!guest) return { kind: "unavailable" };
    const checked = await checkOneTimeCode(services, codeTarget(guest).key, request.code);
    if (!checked.ok) return { kind: "wrong-code", message: checked.message };
    // The record on file is theirs: its contact details are the booking's.
    const details = { ...typed, email: guest.email ?? typed.email, phone: guest.phone ?? typed.phone };
    if (guest.email) await noteGuest(services, guest.email, guest);
    const verified: Draft = { ...draft, guestId: guest.id, verification: undefined };
    // Chosen before they were known: a returning client books the returning version, at its price (decision 037).
    const returning =
      (await clientTypeOf(services, { guestId: guest.id, email: guest.email })) === "returning"
        ? returningVersionOf(request.catalog, request.service)
        : null;
    if (!returning) return await holdWithDetails(services, { ...request, draft: verified, details }, false);
    // Its enhancements are the returning facial's own, of their own length (decision 045).
    const chosen = verified.addOnIds
      .map((id) => request.catalog.find((s) => s.id === id))
      .filter((s): s is Service => Boolean(s));
    const addOnIds = addOnsCarriedTo(returning, request.catalog, chosen);
    const swapped: Draft = { ...verified, serviceId: returning.id, addOnIds, pkg: undefined };
    const outcome = await holdWithDetails(services, { ...request, service: returning, draft: swapped, details }, false);
    return outcome.kind === "saved"
      ? { ...outcome, switched: { from: request.service.displayName, to: returning.displayName } }
      : outcome;
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("verified guest not booked", { kind: error.kind, status: error.status });
    return { kind: "unavailable" };
  }
}
