import type { z } from "zod";
import type { VisitAttribution } from "~/domain/attribution";
import { PAGE_OUT_OF_DATE, placePaymentProblems, type PaymentSchema } from "~/domain/booking-forms";
import type { Service } from "~/domain/catalog";
import { COUPON_MESSAGES } from "~/domain/coupons";
import { PROMO_MESSAGES } from "~/domain/discounts";
import { CANCELLATION_POLICY, type CancellationPolicy } from "~/domain/booking";
import { arrivalAfterCardPage, clipBilling, type Billing, type PaymentArrival } from "~/domain/payment";
import { offeredTo } from "~/domain/service-kinds";
import { formatMoney } from "~/lib/money";
import type { CurrentUser, Services } from "../services";
import { clientTypeOf } from "../guests/holdings.server";
import { packageForTreatment } from "../guests/packages.server";
import { membershipNote, type MembershipNote } from "../memberships/booking-note.server";
import { recordAffiliateClick } from "../referrals/affiliates.server";
import { freeBookingCalls } from "./call-priority.server";
import { findService, requireClinic } from "./catalog-view.server";
import { declineBackEndPrice, finishVerification, quote, type Quote } from "./checkout.server";
import { applyCoupon, applyTypedCode, couponChoices, withoutCode, type CodeOutcome } from "./codes.server";
import { confirmedOf, newPayKey, type Confirmed, type Draft } from "./draft.server";
import { dropHoldClaim } from "./hold-limits.server";
import type { NotBooked } from "./not-booked.server";
import { cardCapturePage, cardWasAdded } from "../payments/card-capture.server";
import { confirmAndPay, paymentStepState, savedCards, type ConfirmOutcome } from "./payment-step.server";
import { promoAttemptLimit } from "./promo-limits.server";
import { draftAsPriced } from "./referral-offer.server";
import { bookingGuest } from "./signed-in.server";

export const CARD_FETCH_ERROR = "Error while fetching card.. please click to try again";
export const CHECKOUT_MESSAGES = {
  busy: "Your booking is still being confirmed. Please wait a moment and press the button again; you won't be charged twice.",
  pending:
    "We haven't heard back from our booking system yet, so we can't say your booking is complete. Nothing is lost and you won't be charged twice: please wait a moment and press the button again.",
  cancelled:
    "Your booking was cancelled and your card was not charged. The promo code was removed; please choose a time again.",
  repriced: (shown: string, due: string) =>
    `Our booking system prices this booking at ${due}, not the ${shown} we showed you, so nothing has been charged. Your time is kept: pay ${due} to book, or cancel the booking.`,
  atLimit: (seconds: number) =>
    `We're very busy right now, so your booking isn't finished yet. Your time is kept and nothing has been charged: please press the button again in ${seconds} seconds.`,
} as const;

export const PACKAGE_GONE = "Your package has no session left for this treatment. Please pay for it as shown.";
export const PACKAGE_ONLY =
  "This treatment is booked with your package: it is for returning clients. To pay instead, please choose the treatment for new clients.";

/** Who is at the payment step, as the request knows them. */
export type PaymentVisitor = {
  user: CurrentUser | null;
  /** The visit's partner (its prices) and ad click (written for the guest once booked). */
  attribution: Pick<VisitAttribution, "partner" | "click">;
};

/**
 * How the visitor leaves the payment step, or comes back to it, once an attempt has an answer.
 * Every exit but "booked" carries the draft to keep.
 */
export type PaymentStepExit =
  /** A page on the payment provider's side (3-D Secure): a document of its own; the draft kept for the return. */
  | { kind: "verify"; uri: string; draft: Draft }
  /** The step is shown again as it now is; `problem` is said above it. */
  | { kind: "again"; draft?: Draft; problem?: string }
  | { kind: "booked"; appointmentId: string; confirmed: Confirmed }
  /** Not booked: the step the visitor goes back to (`notBooked.resume`) says so, and what became of the time. */
  | { kind: "not-booked"; notBooked: NotBooked; draft: Draft }
  /** The guest would not pay the back end's price: the booking was undone and they choose a time again. */
  | { kind: "cancelled"; draft: Draft };

/** How each way of ending without an appointment is told: a card refused, a hold gone, an attempt undone. */
const NOT_BOOKED_KINDS = {
  declined: "payment-failed",
  "hold-lost": "hold-expired",
  undone: "not-finished",
} as const satisfies Record<string, NotBooked["kind"]>;

/**
 * Where an attempt's outcome takes the visitor, or null when the payment step is shown again with a
 * message (not known yet, or still being worked on). `draft` is the draft to keep on failure.
 */
async function exitOf(
  services: Services,
  outcome: ConfirmOutcome,
  draft: Draft,
  visitor: PaymentVisitor,
): Promise<PaymentStepExit | null> {
  if (
    outcome.kind === "busy" ||
    outcome.kind === "pending" ||
    outcome.kind === "invalid" ||
    outcome.kind === "cards-unavailable"
  )
    return null;
  // The visitor comes back to this step: what they typed (the billing address) is kept.
  if (outcome.kind === "verify") return { kind: "verify", uri: outcome.uri, draft };
  if (outcome.kind === "price-changed") return { kind: "again", draft };
  if (outcome.kind === "promo-used") {
    const problem = outcome.coupon ? COUPON_MESSAGES.used(outcome.code) : PROMO_MESSAGES.notValid(outcome.code);
    return { kind: "again", draft: { ...draft, payKey: undefined }, problem };
  }
  // Booked or not, the hold is used up: its place under the address's cap, and the calls kept for it, are free again.
  await dropHoldClaim(services.rateLimiter, draft.hold?.claim);
  await freeBookingCalls(services, draft.id);
  if (outcome.kind === "booked") {
    const { attempt } = outcome;
    // An ad click the visit came with is written for the guest (reported and rethrown on failure; the booking stands).
    const { click } = visitor.attribution;
    if (click && attempt.contact)
      await recordAffiliateClick(services, { guestId: attempt.guestId, email: attempt.contact.email, click }).catch(
        () => undefined,
      );
    return { kind: "booked", appointmentId: attempt.appointmentId!, confirmed: confirmedOf(attempt) };
  }
  const kind = NOT_BOOKED_KINDS[outcome.kind];
  if (outcome.kind === "declined" && draft.doneBy) {
    // The employee flow: the stored ids are cleared and the employee starts again at the clinic.
    const restart: Draft = { centerId: draft.centerId, addOnIds: [], therapistId: null, doneBy: draft.doneBy };
    return { kind: "not-booked", notBooked: { kind, slot: draft.hold?.slot, resume: "service" }, draft: restart };
  }
  return {
    kind: "not-booked",
    notBooked: { kind, slot: draft.hold?.slot, resume: "time" },
    draft: { ...draft, hold: undefined, payKey: undefined },
  };
}

/**
 * The signed-in guest's package with a session left for this treatment: offered only to the
 * account's own guest (not to a visitor booking through a texted link or as a new guest).
 */
async function packageOffer(services: Services, user: CurrentUser | null, draft: Draft) {
  if (!user || !draft.guestId || !draft.serviceId || user.guestId.toLowerCase() !== draft.guestId.toLowerCase())
    return null;
  return packageForTreatment(services, {
    guestId: draft.guestId,
    centerId: draft.centerId,
    serviceId: draft.serviceId,
  });
}

/**
 * Whether the guest may pay for the treatment rather than use the package session: only for a
 * treatment offered to them anyway (a new client's package may cover the returning-client version).
 */
async function mayPayInstead(
  services: Services,
  user: CurrentUser | null,
  draft: Draft,
  service: Service,
): Promise<boolean> {
  return offeredTo(service.name, await clientTypeOf(services, bookingGuest(user, draft)));
}

/** What the payment step shows. */
export type PaymentPage = {
  membership: MembershipNote | null;
  clinicSlug: string;
  packageOffer: { name: string; left: number } | null;
  payInstead: boolean;
  clinic: string;
  /** The clinic's phone, digits as the back end has them; empty when it has none. */
  clinicPhone: string;
  service: string;
  summary: Quote;
  /** The cancellation policy the guest agrees to, and its fee (said next to the pay button). */
  policy: CancellationPolicy;
  /**
   * What to put the guest on when the page is shown: back from the hosted card page, the next thing
   * to do (the card's message when none was added, else the first field left to fill); null otherwise.
   */
  arrival: PaymentArrival | null;
  /** The back end asked another amount than we showed: it is shown, and the guest pays it or cancels. */
  repriced: string | null;
  /** An attempt still being worked on or not known yet. */
  notice: string | null;
  cards: { id: string; label: string; expiry: string }[];
  cardError: string | null;
  /** Back from the hosted card page with no card added. */
  cardFailed: boolean;
  billing: Billing | null;
  payKey: string;
  coupons: { number: string; description: string; saving: string; expiresOn: string | null }[];
};

export type PaymentPageOutcome =
  | { kind: "page"; page: PaymentPage; draft: Draft | null }
  | { kind: "left"; exit: PaymentStepExit };

/**
 * The payment step as it is now. Back from a 3-D Secure page (or any visit while a check is under
 * way) the invoice says how it went, which may take the visitor on. Otherwise the page, and the
 * draft to keep when it changed (null when not): its pay key, its offer, the card page's return read.
 */
export async function paymentStepPage(
  services: Services,
  draft: Draft,
  visitor: PaymentVisitor,
): Promise<PaymentPageOutcome> {
  const { user } = visitor;
  const returned = draft.payKey ? await finishVerification(services, draft.payKey) : null;
  const exit = returned && (await exitOf(services, returned, draft, visitor));
  if (exit) return { kind: "left", exit };
  const notice = returned ? CHECKOUT_MESSAGES[returned.kind === "busy" ? "busy" : "pending"] : null;

  const { center, catalog } = await requireClinic(services, draft.centerId);
  const service = findService(catalog, draft.serviceId)!;
  // The first time the step is shown (no pay key yet), the booking gets its offer: a referred
  // friend's, or the tier that charges the partner's or the clinic's price the menu showed.
  const offered = await draftAsPriced(services, draft, { service, catalog, partnerType: visitor.attribution.partner });
  const [shown, saved] = await Promise.all([
    quote(services, center, catalog, offered),
    savedCards(services, draft, { fresh: Boolean(draft.cardsBefore) }),
  ]);
  const state = await paymentStepState(services, draft.payKey, shown);
  const summary = state.kind === "repriced" ? state.backEnd : shown;
  const cardError = saved ? null : CARD_FETCH_ERROR;

  // Back from the hosted card page: what happened is read from the back end, never the URL.
  let cardFailed = false;
  let arrival: PaymentArrival | null = null;
  const next: Draft = { ...offered };
  if (draft.cardsBefore && !cardError) {
    cardFailed = cardWasAdded(draft.cardsBefore, saved) === false;
    arrival = arrivalAfterCardPage({ cardAdded: !cardFailed, billing: draft.billing ?? null });
    next.cardsBefore = undefined;
  }
  next.payKey ??= newPayKey();
  const changed =
    next.payKey !== draft.payKey || next.cardsBefore !== draft.cardsBefore || next.promoCode !== draft.promoCode;
  const [offer, membership, coupons, payInstead] = await Promise.all([
    draft.pkg || state.kind === "repriced" ? null : packageOffer(services, user, draft),
    membershipNote(services, { user, centerId: center.id, service }),
    // A signed-in guest's own coupons, offered while the booking carries no code.
    summary.promo?.applied || state.kind === "repriced" ? [] : couponChoices(services, { catalog, draft: next, user }),
    summary.package ? mayPayInstead(services, user, draft, service) : false,
  ]);
  const page: PaymentPage = {
    membership,
    clinicSlug: center.slug,
    packageOffer: offer ? { name: offer.name, left: offer.left } : null,
    payInstead,
    clinic: center.name,
    clinicPhone: center.phone,
    service: service.displayName,
    summary,
    policy: CANCELLATION_POLICY,
    arrival,
    repriced:
      state.kind === "repriced"
        ? CHECKOUT_MESSAGES.repriced(formatMoney(state.shown.dueNow), formatMoney(state.backEnd.dueNow))
        : null,
    notice,
    cards: (saved ?? [])
      .map((c) => ({ id: c.accountId, label: `${c.brand} ending ${c.lastFour}`, expiry: c.expiry }))
      .reverse(),
    cardError,
    cardFailed,
    billing: draft.billing ?? null,
    payKey: next.payKey,
    coupons: coupons.map((c) => ({
      number: c.number,
      description: c.description,
      saving: formatMoney(c.saving),
      expiresOn: c.expiresOn,
    })),
  };
  return { kind: "page", page, draft: changed ? next : null };
}

/** The payment form as its schema reads it. */
export type PaymentForm = z.infer<typeof PaymentSchema>;

/** A press the step refuses: the form is shown again with what was typed, the messages and a status. */
export type PaymentRefusal = {
  kind: "refused";
  status: number;
  formErrors?: string[];
  fieldErrors?: Record<string, string[]>;
  retryAfterSeconds?: number;
  /** The draft to keep all the same (the billing address typed so far). */
  draft?: Draft;
};

export type PaymentActionOutcome =
  | PaymentRefusal
  /** The hosted card page (a document of its own, on this origin or the provider's), with the draft that knows the cards before it. */
  | { kind: "card-page"; uri: string; draft: Draft }
  | PaymentStepExit;

export type PaymentActionRequest = PaymentVisitor & {
  draft: Draft;
  form: PaymentForm;
  /** The visitor's address, for the limit on typed promo codes. */
  clientIp: string;
  /** The payment step on the site's origin: where hosted pages send the visitor back. */
  returnTo: string;
};

const refused = (status: number, problems: Omit<PaymentRefusal, "kind" | "status"> = {}): PaymentRefusal => ({
  kind: "refused",
  status,
  ...problems,
});

/**
 * A press on the payment step, told apart by its intent: add a card, use or stop a package session,
 * apply or remove a code, cancel a booking the back end repriced, or confirm and pay. Whichever it
 * is, the billing address typed so far is kept for the next visit.
 */
export async function paymentStepAction(
  services: Services,
  request: PaymentActionRequest,
): Promise<PaymentActionOutcome> {
  const { draft, form, user } = request;
  const { center, catalog } = await requireClinic(services, draft.centerId);
  const billing: Billing = {
    address: form.address ?? "",
    city: form.city ?? "",
    state: form.state ?? "",
    zip: form.zip ?? "",
  };
  const withBilling: Draft = { ...draft, billing: clipBilling(billing) };

  switch (form.intent) {
    case "add-card": {
      const page = await cardCapturePage(services, {
        guestId: draft.guestId!,
        centerId: center.id,
        returnTo: request.returnTo,
      });
      if (page.kind !== "page")
        return refused(page.kind === "foreign-origin" ? 502 : 503, { formErrors: [CARD_FETCH_ERROR] });
      return { kind: "card-page", uri: page.uri, draft: { ...withBilling, cardsBefore: page.knownCards } };
    }
    case "use-package":
      if (!(await packageOffer(services, user, draft))) return refused(409, { formErrors: [PACKAGE_GONE] });
      return { kind: "again", draft: { ...withBilling, pkg: 1 } };
    case "stop-package":
      if (!(await mayPayInstead(services, user, draft, findService(catalog, draft.serviceId)!)))
        return refused(409, { formErrors: [PACKAGE_ONLY] });
      return { kind: "again", draft: { ...withBilling, pkg: undefined } };
    case "remove-promo":
      return { kind: "again", draft: withoutCode(withBilling) };
    case "apply-promo": {
      const limited = await promoAttemptLimit(services, {
        clientIp: request.clientIp,
        bookingId: draft.hold!.bookingId,
      });
      if (limited)
        return refused(429, {
          fieldErrors: { promo: [limited.message] },
          retryAfterSeconds: limited.retryAfterSeconds,
        });
      const applied = await applyTypedCode(services, {
        center,
        catalog,
        draft: withBilling,
        user,
        typed: form.promo ?? "",
      });
      return codeApplied(applied, "promo");
    }
    case "apply-coupon":
      return codeApplied(
        await applyCoupon(services, { center, catalog, draft: withBilling, user, number: form.coupon ?? "" }),
        "coupon",
      );
  }

  const payKey = form.payKey ?? "";
  if (!payKey || payKey !== draft.payKey) return refused(409, { formErrors: [PAGE_OUT_OF_DATE] });

  if (form.intent === "cancel-booking") {
    // A back end that cannot be reached leaves the attempt as it was ("not known yet"): nothing is lost.
    const cancelled = await declineBackEndPrice(services, payKey);
    if (cancelled?.kind === "undone") {
      await dropHoldClaim(services.rateLimiter, draft.hold?.claim);
      await freeBookingCalls(services, draft.id);
      return { kind: "cancelled", draft: { ...withoutCode(withBilling), hold: undefined, payKey: undefined } };
    }
    // Nothing to cancel (a page out of date): the step is shown as it now is.
    if (!cancelled) return { kind: "again" };
    return (
      (await exitOf(services, cancelled, withBilling, request)) ??
      refused(503, { formErrors: [CHECKOUT_MESSAGES.pending] })
    );
  }

  const shownDue = form.shownDue === undefined ? undefined : Number(form.shownDue);
  const agreed = form.policy === "agreed";
  const outcome = await confirmAndPay(services, {
    payKey,
    draft,
    center,
    catalog,
    cardId: form.card ?? "",
    billing,
    agreed,
    returnTo: request.returnTo,
    shownDue,
  });
  switch (outcome.kind) {
    case "cards-unavailable":
      return refused(503, { formErrors: [CARD_FETCH_ERROR] });
    case "invalid": {
      const placed = placePaymentProblems(outcome.errors, billing);
      return refused(400, {
        formErrors: placed.filter(({ path }) => path.length === 0).map(({ message }) => message),
        fieldErrors: Object.fromEntries(
          placed.filter(({ path }) => path.length > 0).map(({ path, message }) => [path[0], [message]]),
        ),
        draft: withBilling,
      });
    }
    case "busy":
      return refused(409, { formErrors: [CHECKOUT_MESSAGES.busy] });
    case "pending": {
      const wait = outcome.busyRetryAfterSeconds;
      return wait
        ? refused(503, { formErrors: [CHECKOUT_MESSAGES.atLimit(wait)], retryAfterSeconds: wait })
        : refused(503, { formErrors: [CHECKOUT_MESSAGES.pending] });
    }
  }
  return (await exitOf(services, outcome, withBilling, request))!;
}

/** A code applied is a draft to keep; a code refused is said next to the field it was typed or chosen in. */
function codeApplied(applied: CodeOutcome, field: "promo" | "coupon"): PaymentActionOutcome {
  if (applied.kind === "refused") return refused(400, { fieldErrors: { [field]: [applied.message] } });
  return { kind: "again", draft: applied.draft };
}
