import { href, redirect } from "react-router";
import { normalizeBookingDate } from "~/domain/booking";
import type { Center, Service, Therapist } from "~/domain/catalog";
import { normalizePromoCode } from "~/domain/discounts";
import { clinicToday } from "~/lib/dates";
import type { CurrentUser, Services } from "../services";
import { guestHoldings, treatmentsFor, type GuestHoldings } from "../guests/holdings.server";
import { isOfferCode } from "../pricing/offer-prices.server";
import { currentUser, requestSession, type RequestContext } from "../request-context.server";
import { findService, requireChosenService, requireClinic } from "./catalog-view.server";
import { getDraft, type Draft } from "./draft.server";
import { dropDraftHold } from "./holds.server";
import { linkedPromoAllowed } from "./promo-limits.server";
import { bookingGuest } from "./signed-in.server";
import { textedGuest } from "./sms-link.server";

/**
 * A booking link: the clinic's staff (`service`, `therapist`, `date`, `promo`, `done_by`) or a
 * texted guest (`guest`, a signed token) fill in choices by address. Reading a link changes
 * nothing: the steps it opens show the choices, and the address carries them to the next POST
 * (choosing a treatment or a time), which keeps them in the draft (decision 051).
 */
const LINK_PARAMS = ["service", "therapist", "date", "promo", "guest", "done_by"] as const;
type LinkParam = (typeof LINK_PARAMS)[number];

export type BookingLink = { centerId: string } & Partial<Record<LinkParam, string>>;

/** The link an address carries (with its clinic, `id`), or null when it fills in nothing. */
export function bookingLinkOf(url: URL): BookingLink | null {
  const centerId = url.searchParams.get("id");
  if (!centerId) return null;
  const link: BookingLink = { centerId };
  for (const name of LINK_PARAMS) {
    const value = url.searchParams.get(name);
    if (value) link[name] = value.slice(0, 512);
  }
  return LINK_PARAMS.some((name) => link[name]) ? link : null;
}

/**
 * The link as address parameters, to carry it on a step's own links and forms (`&id=…&service=…`);
 * `without` leaves out what a link of the page names itself (the treatment step's "Select": its clinic and treatment).
 */
export function linkQuery(link: BookingLink | null, without: readonly (LinkParam | "id")[] = []): string {
  if (!link) return "";
  const params = new URLSearchParams(without.includes("id") ? {} : { id: link.centerId });
  for (const name of LINK_PARAMS) if (link[name] && !without.includes(name)) params.set(name, link[name]!);
  return `&${params.toString()}`;
}

const sameChoice = (a: Draft, b: Draft) =>
  a.serviceId === b.serviceId &&
  a.therapistId === b.therapistId &&
  [...a.addOnIds].sort().join() === [...b.addOnIds].sort().join();

export type LinkedDraft = {
  /** The draft with the link's choices filled in. */
  draft: Draft;
  /** The treatment the link names, among those offered to this visitor. */
  linkedService: Service | undefined;
  /** The treatments offered to the visitor (the returning versions for a returning client, decision 037), and what they hold. */
  treatments: Service[];
  holdings: GuestHoldings;
  therapists: Therapist[];
  /** The link changes the treatment, its options or the nurse: a hold the draft had is not for this booking. */
  choiceChanged: boolean;
};

/**
 * The draft as the link fills it in, from the one kept (`kept`, for this clinic or not). With
 * `keep: false` (a page shown) nothing is changed anywhere; with `keep: true` (the POST that takes the
 * link on) a hold the link makes stale is let go, and a promo code from the link is tried, counting
 * against the address's tries. Until then a page shows the code the draft already has, never the
 * link's: showing prices for any code typed into an address would be an uncounted way to guess codes.
 */
export async function draftFromLink(
  services: Services,
  input: {
    center: Center;
    catalog: Service[];
    kept: Draft | null;
    link: BookingLink | null;
    user: CurrentUser | null;
    clientIp: string;
    keep: boolean;
  },
): Promise<LinkedDraft> {
  const { center, catalog, kept, link, user } = input;
  const draft: Draft = kept?.centerId === center.id ? kept : { centerId: center.id, addOnIds: [], therapistId: null };
  // The SMS flow: a signed, expiring guest token opens the journey with the guest known. An
  // unsigned, altered or expired token is ignored.
  const texted = link?.guest ? await textedGuest(services, link.guest, center.id) : null;
  // What the visitor holds decides what they are offered: the returning versions for a returning
  // client, and what their packages pay for (decision 037).
  const holdings = await guestHoldings(
    services,
    bookingGuest(user, texted?.email ? { guestId: texted.id, details: { email: texted.email } } : draft),
    center.id,
  );
  const treatments = treatmentsFor(catalog, holdings);
  const therapists = (await services.catalog.listTherapists(center.id).catch(() => null)) ?? [];
  const linkedService = findService(treatments, link?.service);
  const linkedTherapist = therapists.find((t) => t.id === link?.therapist?.toLowerCase());
  const linkedDate = normalizeBookingDate(link?.date ?? null, clinicToday(center.timeZone));
  const promo = link?.promo ? await acceptedPromo(services, link.promo, draft, input) : null;
  // A staff link may name the employee booking for the guest (the spec's done_by); only a nurse of this clinic counts.
  const doneBy = therapists.find((t) => t.id === link?.done_by?.toLowerCase());
  const next: Draft = {
    ...draft,
    ...(linkedService && linkedService.id !== draft.serviceId ? { serviceId: linkedService.id, addOnIds: [] } : {}),
    ...(linkedTherapist ? { therapistId: linkedTherapist.id } : {}),
    ...(doneBy ? { doneBy: doneBy.id } : {}),
    ...(linkedDate ? { date: linkedDate } : {}),
    ...(promo ? { promoCode: promo } : {}),
    ...(texted?.email
      ? {
          guestId: texted.id,
          details: {
            firstName: texted.firstName,
            lastName: texted.lastName,
            email: texted.email,
            phone: texted.phone ?? "",
          },
        }
      : {}),
  };
  const choiceChanged = !sameChoice(next, draft);
  if (choiceChanged) next.hold = undefined;
  if (input.keep) {
    // Another clinic's draft, or a choice the link changed: the hold it had is let go.
    if (kept && kept.centerId !== center.id) await dropDraftHold(services, kept);
    else if (choiceChanged) await dropDraftHold(services, draft);
  }
  return { draft: next, linkedService, treatments, holdings, therapists, choiceChanged };
}

/** A promo code from a link: never an offer tier's code, and tried only when kept, within the address's tries. */
async function acceptedPromo(
  services: Services,
  raw: string,
  draft: Draft,
  input: { clientIp: string; keep: boolean },
): Promise<string | null> {
  const code = normalizePromoCode(raw);
  if (code.length === 0 || code.length > 32 || (await isOfferCode(services, code))) return null;
  if (code === draft.promoCode) return code;
  // A page shown does not try the code (nothing is counted on a GET): its prices show it once a POST kept it.
  if (!input.keep) return null;
  return (await linkedPromoAllowed(services, input.clientIp)) ? code : null;
}

/**
 * A step after the treatment choice (the time step): the draft, its clinic and catalog, and the
 * chosen treatment, as kept, or as the booking link in the address fills them in. `keep` as for
 * `draftFromLink`: only the step's POST keeps the link's choices.
 */
export async function requireChosenServiceOrLink(context: RequestContext, request: Request, keep: boolean) {
  const link = bookingLinkOf(new URL(request.url));
  if (!link) return { ...(await requireChosenService(context)), link: null };
  const { services } = context;
  const session = requestSession(context);
  const { center, catalog } = await requireClinic(services, link.centerId);
  const user = await currentUser(context);
  const { draft } = await draftFromLink(services, {
    center,
    catalog,
    kept: getDraft(session),
    link,
    user,
    clientIp: context.clientIp,
    keep,
  });
  const service = findService(catalog, draft.serviceId);
  if (!service)
    throw redirect(`${href("/appointment/service")}?id=${encodeURIComponent(center.id)}${linkQuery(link, ["id"])}`);
  return { session, draft, center, catalog, service, link };
}
