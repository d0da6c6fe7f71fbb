import type { Service } from "~/domain/catalog";
import { getCollectionProps, getInputProps } from "@conform-to/react";
import { href, Link, redirect, redirectDocument, useNavigation } from "react-router";
import { CheckboxField, ErrorSummary, Field, FieldMessage, SchemaForm, SelectField, useFocusFirst, useSchemaForm } from "~/components/forms";
import { NO_SHOW_FEE, NO_SHOW_WINDOW_HOURS, LATE_ARRIVAL_MINUTES } from "~/domain/booking";
import { PAGE_OUT_OF_DATE, PaymentSchema, placePaymentProblems } from "~/domain/booking-forms";
import { COUPON_MESSAGES } from "~/domain/coupons";
import { PROMO_MESSAGES } from "~/domain/discounts";
import { clipBilling, PAYMENT_MESSAGES, type Billing } from "~/domain/payment";
import { formatDay } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { US_STATES } from "~/lib/us-states";
import { bookingCallPriority, freeBookingCalls } from "#server/booking/call-priority.server";
import { findService, requireClinic } from "#server/booking/catalog-view.server";
import { declineBackEndPrice, finishVerification, quote } from "#server/booking/checkout.server";
import { dropHoldClaim } from "#server/booking/hold-limits.server";
import { promoAttemptLimit } from "#server/booking/promo-limits.server";
import { applyCoupon, applyTypedCode, couponChoices, withoutCode, type CodeOutcome } from "#server/booking/codes.server";
import { recordAffiliateClick } from "#server/referrals/affiliates.server";
import { draftAsPriced } from "#server/booking/referral-offer.server";
import { confirmedOf, newPayKey, requireDraft, setConfirmed, setDraft, type Draft } from "#server/booking/draft.server";
import { flashNotBooked, type NotBooked } from "#server/booking/not-booked.server";
import { confirmAndPay, paymentStepState, savedCards, type ConfirmOutcome } from "#server/booking/payment-step.server";
import { cardCapturePage, cardWasAdded } from "#server/payments/card-capture.server";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { packageForTreatment } from "#server/guests/packages.server";
import { clientTypeOf } from "#server/guests/holdings.server";
import { bookingGuest } from "#server/booking/signed-in.server";
import { offeredTo } from "~/domain/service-kinds";
import { membershipNote } from "#server/memberships/booking-note.server";
import { currentUser, requestSession, visitAttribution, type RequestContext } from "#server/request-context.server";
import { siteOrigin } from "#server/site.server";
import { flashToast } from "#server/toast.server";
import { guardAction } from "#server/unavailable.server";
import type { Route } from "./+types/payment";

export const CARD_FETCH_ERROR = "Error while fetching card.. please click to try again";
export const CHECKOUT_MESSAGES = {
  busy: "Your booking is still being confirmed. Please wait a moment and press the button again; you won't be charged twice.",
  pending:
    "We haven't heard back from our booking system yet, so we can't say your booking is complete. Nothing is lost and you won't be charged twice: please wait a moment and press the button again.",
  cancelled: "Your booking was cancelled and your card was not charged. The promo code was removed; please choose a time again.",
  repriced: (shown: string, due: string) =>
    `Our booking system prices this booking at ${due}, not the ${shown} we showed you, so nothing has been charged. Your time is kept: pay ${due} to book, or cancel the booking.`,
  atLimit: (seconds: number) =>
    `We're very busy right now, so your booking isn't finished yet. Your time is kept and nothing has been charged: please press the button again in ${seconds} seconds.`,
} as const;

const PACKAGE_GONE = "Your package has no session left for this treatment. Please pay for it as shown.";
const PACKAGE_ONLY = "This treatment is booked with your package: it is for returning clients. To pay instead, please choose the treatment for new clients.";

/** The step's calls are those of a booking that holds a slot: first in line for the chain's calls (decision 036). */
export const middleware: Route.MiddlewareFunction[] = [bookingCallPriority];

export const meta: Route.MetaFunction = () => [{ title: "Payment | Glow Clinic" }, { name: "robots", content: "noindex" }];

/** The payment step's own address on the site's origin (never a forwarded host): hosted pages send them back here. */
function paymentStepUrl(request: Request, context: RequestContext): string {
  return `${siteOrigin(request, context)}${href("/appointment/payment")}`;
}

/** How each way of ending without an appointment is told: a card refused, a hold gone, an attempt undone. */
const NOT_BOOKED_KINDS = { declined: "payment-failed", "hold-lost": "hold-expired", undone: "not-finished" } as const satisfies Record<string, NotBooked["kind"]>;

/**
 * Where a confirm-and-pay outcome takes the visitor, or null when the payment page is shown again
 * with a message (not known yet, or still being worked on). `draft` is the draft to keep on failure.
 */
async function leavePaymentStep(context: Route.LoaderArgs["context"], outcome: ConfirmOutcome, draft: Draft): Promise<Response | null> {
  const { services } = context;
  const session = requestSession(context);
  const toast = (title: string) => flashToast(context, { type: "error", title });
  if (outcome.kind === "busy" || outcome.kind === "pending" || outcome.kind === "invalid" || outcome.kind === "cards-unavailable") return null;
  if (outcome.kind === "verify" || outcome.kind === "price-changed") {
    // The visitor comes back to this step: what they typed (the billing address) is kept.
    setDraft(session, draft);
    // A page on the payment provider's side is a document of its own: never fetched as route data.
    return outcome.kind === "verify" ? redirectDocument(outcome.uri) : redirect(href("/appointment/payment"));
  }
  if (outcome.kind === "promo-used") {
    toast(outcome.coupon ? COUPON_MESSAGES.used(outcome.code) : PROMO_MESSAGES.notValid(outcome.code));
    setDraft(session, { ...draft, payKey: undefined });
    return redirect(href("/appointment/payment"));
  }
  // Booked or not, the hold is used up: its place under the address's cap, and the calls kept for it, are free again.
  await dropHoldClaim(services.rateLimiter, draft.hold?.claim);
  await freeBookingCalls(services, draft.id);
  if (outcome.kind === "booked") {
    const { attempt } = outcome;
    // An ad click the visit came with is written for the guest (reported and rethrown on failure; the booking stands).
    const { click } = visitAttribution(context);
    if (click && attempt.contact) await recordAffiliateClick(services, { guestId: attempt.guestId, email: attempt.contact.email, click }).catch(() => undefined);
    setConfirmed(session, confirmedOf(attempt));
    setDraft(session, null);
    return redirect(href("/appointment/confirmation/:appointmentId", { appointmentId: attempt.appointmentId! }));
  }
  // Not booked: the step the visitor goes back to says so, and what became of the time.
  const kind = NOT_BOOKED_KINDS[outcome.kind];
  if (outcome.kind === "declined" && draft.doneBy) {
    // The employee flow: the stored ids are cleared and the employee starts again at the clinic.
    flashNotBooked(context, { kind, slot: draft.hold?.slot, resume: "service" });
    setDraft(session, { centerId: draft.centerId, addOnIds: [], therapistId: null, doneBy: draft.doneBy });
    return redirect(`${href("/appointment/service")}?id=${encodeURIComponent(draft.centerId)}`);
  }
  flashNotBooked(context, { kind, slot: draft.hold?.slot, resume: "time" });
  setDraft(session, { ...draft, hold: undefined, payKey: undefined });
  return redirect(`${href("/appointment/time")}?date=${draft.date ?? ""}`);
}

/**
 * The signed-in guest's package with a session left for this treatment: offered only to the
 * account's own guest (not to a visitor booking through a texted link or as a new guest).
 */
async function packageOffer(context: RequestContext, draft: Draft) {
  const user = await currentUser(context);
  if (!user || !draft.guestId || !draft.serviceId || user.guestId.toLowerCase() !== draft.guestId.toLowerCase()) return null;
  return packageForTreatment(context.services, { guestId: draft.guestId, centerId: draft.centerId, serviceId: draft.serviceId });
}

/**
 * Whether the guest may pay for the treatment rather than use the package session: only for a
 * treatment offered to them anyway (a new client's package may cover the returning-client version).
 */
async function mayPayInstead(context: RequestContext, draft: Draft, service: Service): Promise<boolean> {
  return offeredTo(service.name, await clientTypeOf(context.services, bookingGuest(await currentUser(context), draft)));
}

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context;
  const { session, draft } = await requireDraft(context, "details");
  // Back from a 3-D Secure page (or any visit while a check is under way): the invoice says how it went.
  const returned = draft.payKey ? await finishVerification(services, draft.payKey) : null;
  const left = returned && (await leavePaymentStep(context, returned, draft));
  if (left) throw left;
  const notice = returned ? CHECKOUT_MESSAGES[returned.kind === "busy" ? "busy" : "pending"] : null;

  const { center, catalog } = await requireClinic(services, draft.centerId);
  // The first time the step is shown (no pay key yet), the booking gets its offer: a referred
  // friend's, or the tier that charges the partner's or the clinic's price the menu showed.
  const offered = await draftAsPriced(services, draft, { service: findService(catalog, draft.serviceId)!, catalog, partnerType: visitAttribution(context).partner });
  const [shown, saved] = await Promise.all([quote(services, center, catalog, offered), savedCards(services, draft, { fresh: Boolean(draft.cardsBefore) })]);
  const state = await paymentStepState(services, draft.payKey, shown);
  const summary = state.kind === "repriced" ? state.backEnd : shown;
  const cards = saved ?? [];
  const cardError = saved ? null : CARD_FETCH_ERROR;

  // Back from the hosted card page: what happened is read from the back end, never the URL.
  let cardFailed = false;
  const next: Draft = { ...offered };
  if (draft.cardsBefore && !cardError) {
    cardFailed = cardWasAdded(draft.cardsBefore, saved) === false;
    next.cardsBefore = undefined;
  }
  next.payKey ??= newPayKey();
  const changed = next.payKey !== draft.payKey || next.cardsBefore !== draft.cardsBefore || next.promoCode !== draft.promoCode;
  if (changed) setDraft(session, next);
  const service = findService(catalog, draft.serviceId)!;
  const user = await currentUser(context);
  const [offer, membership, coupons] = await Promise.all([
    draft.pkg || state.kind === "repriced" ? null : packageOffer(context, draft),
    membershipNote(services, { user, centerId: center.id, service }),
    // A signed-in guest's own coupons, offered while the booking carries no code.
    summary.promo?.applied || state.kind === "repriced" ? [] : couponChoices(services, { catalog, draft: next, user }),
  ]);
  return {
      membership,
      clinicSlug: center.slug,
      packageOffer: offer ? { name: offer.name, left: offer.left } : null,
      payInstead: summary.package ? await mayPayInstead(context, draft, service) : false,
      clinic: center.name,
      service: service.displayName,
      summary,
      repriced: state.kind === "repriced" ? CHECKOUT_MESSAGES.repriced(formatMoney(state.shown.dueNow), formatMoney(state.backEnd.dueNow)) : null,
      notice,
      cards: cards.map((c) => ({ id: c.accountId, label: `${c.brand} ending ${c.lastFour}`, expiry: c.expiry })).reverse(),
      cardError,
      cardFailed,
      billing: draft.billing ?? null,
      payKey: next.payKey,
      coupons: coupons.map((c) => ({ number: c.number, description: c.description, saving: formatMoney(c.saving), expiresOn: c.expiresOn })),
  };
}

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const { session, draft } = await requireDraft(context, "details");
  const { center, catalog } = await requireClinic(services, draft.centerId);
  const submission = parseSubmission(await formDataOf(request), PaymentSchema);
  if (submission.status !== "success") return refuseForm(submission);
  const { intent, card, promo, policy } = submission.value;
  const billing: Billing = { address: submission.value.address ?? "", city: submission.value.city ?? "", state: submission.value.state ?? "", zip: submission.value.zip ?? "" };
  // Whichever button was pressed, the billing address typed so far is kept for the next visit.
  const withBilling: Draft = { ...draft, billing: clipBilling(billing) };

  if (intent === "add-card") {
    const page = await cardCapturePage(services, { guestId: draft.guestId!, centerId: center.id, returnTo: paymentStepUrl(request, context) });
    if (page.kind !== "page") return refuseForm(submission, { status: page.kind === "foreign-origin" ? 502 : 503, formErrors: [CARD_FETCH_ERROR] });
    setDraft(session, { ...withBilling, cardsBefore: page.knownCards });
    // The card page is a document of its own, on this origin or the provider's: never fetched as route data.
    return redirectDocument(page.uri);
  }

  if (intent === "use-package") {
    if (!(await packageOffer(context, draft))) return refuseForm(submission, { status: 409, formErrors: [PACKAGE_GONE] });
    setDraft(session, { ...withBilling, pkg: 1 });
    return redirect(href("/appointment/payment"));
  }

  if (intent === "stop-package") {
    if (!(await mayPayInstead(context, draft, findService(catalog, draft.serviceId)!))) return refuseForm(submission, { status: 409, formErrors: [PACKAGE_ONLY] });
    setDraft(session, { ...withBilling, pkg: undefined });
    return redirect(href("/appointment/payment"));
  }

  if (intent === "remove-promo") {
    setDraft(session, withoutCode(withBilling));
    return redirect(href("/appointment/payment"));
  }

  if (intent === "apply-promo" || intent === "apply-coupon") {
    let applied: CodeOutcome;
    if (intent === "apply-promo") {
      const limited = await promoAttemptLimit(services, { clientIp: context.clientIp, bookingId: draft.hold!.bookingId });
      if (limited) return refuseForm(submission, { status: 429, fieldErrors: { promo: [limited.message] }, headers: { "Retry-After": String(limited.retryAfterSeconds) } });
      applied = await applyTypedCode(services, { center, catalog, draft: withBilling, user: await currentUser(context), typed: promo ?? "" });
    } else {
      applied = await applyCoupon(services, { center, catalog, draft: withBilling, user: await currentUser(context), number: submission.value.coupon ?? "" });
    }
    if (applied.kind === "refused") return refuseForm(submission, { fieldErrors: { [intent === "apply-promo" ? "promo" : "coupon"]: [applied.message] } });
    setDraft(session, applied.draft);
    return redirect(href("/appointment/payment"));
  }

  const payKey = submission.value.payKey ?? "";
  if (!payKey || payKey !== draft.payKey) return refuseForm(submission, { status: 409, formErrors: [PAGE_OUT_OF_DATE] });

  if (intent === "cancel-booking") {
    // A back end that cannot be reached leaves the attempt as it was ("not known yet"): nothing is lost.
    const cancelled = await declineBackEndPrice(services, payKey);
    if (cancelled?.kind === "undone") {
      await dropHoldClaim(services.rateLimiter, draft.hold?.claim);
      await freeBookingCalls(services, draft.id);
      flashToast(context, { type: "info", title: CHECKOUT_MESSAGES.cancelled });
      setDraft(session, { ...withoutCode(withBilling), hold: undefined, payKey: undefined });
      return redirect(`${href("/appointment/time")}?date=${draft.date ?? ""}`);
    }
    // Nothing to cancel (a page out of date): the step is shown as it now is.
    if (!cancelled) return redirect(href("/appointment/payment"));
    return (await leavePaymentStep(context, cancelled, withBilling)) ?? refuseForm(submission, { status: 503, formErrors: [CHECKOUT_MESSAGES.pending] });
  }

  const shownDue = submission.value.shownDue === undefined ? undefined : Number(submission.value.shownDue);
  const outcome = await confirmAndPay(services, { payKey, draft, center, catalog, cardId: card ?? "", billing, agreed: policy === "agreed", returnTo: paymentStepUrl(request, context), shownDue });
  if (outcome.kind === "cards-unavailable") return refuseForm(submission, { status: 503, formErrors: [CARD_FETCH_ERROR] });
  if (outcome.kind === "invalid") {
    setDraft(session, withBilling);
    const placed = placePaymentProblems(outcome.errors, billing);
    return refuseForm(submission, {
      formErrors: placed.filter(({ path }) => path.length === 0).map(({ message }) => message),
      fieldErrors: Object.fromEntries(placed.filter(({ path }) => path.length > 0).map(({ path, message }) => [path[0], [message]])),
    });
  }
  if (outcome.kind === "busy") return refuseForm(submission, { status: 409, formErrors: [CHECKOUT_MESSAGES.busy] });
  if (outcome.kind === "pending" && outcome.busyRetryAfterSeconds) {
    const wait = outcome.busyRetryAfterSeconds;
    return refuseForm(submission, { status: 503, formErrors: [CHECKOUT_MESSAGES.atLimit(wait)], headers: { "Retry-After": String(wait) } });
  }
  if (outcome.kind === "pending") return refuseForm(submission, { status: 503, formErrors: [CHECKOUT_MESSAGES.pending] });
  return (await leavePaymentStep(context, outcome, withBilling))!;
});

/**
 * A line's amount in the price summary. A line with no price of its own is an area or enhancement
 * that comes with the treatment ("Included"), a treatment priced by its areas (the areas' lines
 * carry the price), or a treatment that is free; never a bare "$0".
 */
function lineAmount(price: number, index: number, lineCount: number): string {
  if (price > 0) return formatMoney(price);
  if (index > 0) return "Included";
  return lineCount > 1 ? "Priced by area" : "Free";
}

export default function PaymentStep({ loaderData, actionData }: Route.ComponentProps) {
  const { clinic, service, summary, repriced, notice, cards, cardError, cardFailed, payKey, packageOffer, payInstead, membership, clinicSlug, coupons } = loaderData;
  const navigation = useNavigation();
  const confirming = navigation.state === "submitting" && navigation.formData?.get("intent") === "confirm";
  const payment = useSchemaForm(PaymentSchema, {
    id: "payment",
    lastResult: actionData?.result,
    defaultValue: { ...loaderData.billing, card: cards[0]?.id ?? null },
  });
  const { fields } = payment;
  const focusCard = useFocusFirst(fields.card.name);
  const focusPromo = useFocusFirst(fields.promo.name);
  return (
    <>
      <h1>Payment</h1>
      <p>
        {service} at {clinic}.
      </p>
      <ErrorSummary key={payment.attempt} form={payment.form} />
      {repriced || notice ? (
        <p className="field-error" role="alert">
          {repriced ?? notice}
        </p>
      ) : null}

      <section aria-labelledby="summary-heading" className="summary">
        <h2 id="summary-heading">Price summary</h2>
        <table>
          <tbody>
            {/* Each line at its price, then each discount once on a row of its own: nothing is taken off twice. */}
            {summary.lines.map((line, index) => (
              <tr key={line.name}>
                <th scope="row">{line.name}</th>
                <td>{lineAmount(line.price, index, summary.lines.length)}</td>
              </tr>
            ))}
            {summary.discount > 0 ? (
              <tr>
                <th scope="row">{summary.promo?.code ? `${summary.promo.kind === "coupon" ? "Coupon" : "Promo code"} ${summary.promo.code}` : "Discount"}</th>
                <td>−{formatMoney(summary.discount)}</td>
              </tr>
            ) : null}
            {summary.member ? (
              <tr>
                <th scope="row">Member price ({summary.member.plan})</th>
                <td>−{formatMoney(summary.member.discount)}</td>
              </tr>
            ) : null}
            {summary.package ? (
              <tr>
                <th scope="row">Paid by your package ({summary.package.name})</th>
                <td>−{formatMoney(summary.package.covers)}</td>
              </tr>
            ) : null}
            <tr className="total">
              <th scope="row">Total</th>
              <td>{formatMoney(summary.total)}</td>
            </tr>
            <tr>
              <th scope="row">Due now</th>
              <td>{formatMoney(summary.dueNow)}</td>
            </tr>
            <tr>
              <th scope="row">Due in clinic</th>
              <td>{formatMoney(summary.dueInClinic)}</td>
            </tr>
          </tbody>
        </table>
        <p className="muted">
          {summary.prepaid
            ? "This clinic takes payment when you book."
            : "Your card holds the appointment; you pay in the clinic after your treatment."}
        </p>
        {membership?.kind === "member" ? (
          <p className="notice">
            Your {membership.plan} membership {membership.covers ? "covers this treatment" : "gives you member prices"}.
            {summary.member ? " Your member price is in the summary above." : ""}
            {membership.credit ? ` You have ${membership.credit} of treatment credit to use at the clinic.` : ""}
          </p>
        ) : membership?.kind === "offer" ? (
          <p className="notice">
            Members of {membership.plan} ({membership.price}) save {membership.saving} on this treatment.{" "}
            <Link to={`${href("/memberships")}?clinic=${clinicSlug}`}>See memberships</Link>
          </p>
        ) : null}
      </section>

      <SchemaForm schemaForm={payment} summary={false} className="form">
        <input type="hidden" name="payKey" value={payKey} />
        {/* What the button says is due now: a back end asking another amount is not charged. */}
        <input type="hidden" name="shownDue" value={summary.dueNow} />

        <fieldset>
          <legend>Card</legend>
          {cardFailed ? (
            <p className="field-error" role="alert">
              {PAYMENT_MESSAGES.failed}. Your card was not added; please try another card.
            </p>
          ) : null}
          {cardError ? (
            <p className="field-error" role="alert">
              <a href={href("/appointment/payment")}>{cardError}</a>
            </p>
          ) : null}
          {getCollectionProps(fields.card, { type: "radio", options: cards.map((card) => card.id), ariaAttributes: false }).map(({ key, ...props }, index) => (
            <label key={key} className="check">
              <input {...props} autoFocus={index === 0 ? focusCard : undefined} /> {cards[index].label} <span className="muted">expires {cards[index].expiry}</span>
            </label>
          ))}
          <button type="submit" name="intent" value="add-card" className="button-secondary">
            {cards.length > 0 ? "Add another card" : "Add a card"}
          </button>
          <p className="muted">You'll enter your card on our payment provider's secure page; we never see the number.</p>
        </fieldset>

        {/* Needed to book, not to add a card or apply a code: marked required here, checked by the schema on "confirm". */}
        <fieldset>
          <legend>Billing address</legend>
          <Field meta={fields.address} label="Street address" autoComplete="billing street-address" required />
          <Field meta={fields.city} label="City" autoComplete="billing address-level2" required />
          <SelectField meta={fields.state} label="State" autoComplete="billing address-level1" required>
            <option value="">Select state</option>
            {US_STATES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </SelectField>
          <Field meta={fields.zip} label="ZIP code" inputMode="numeric" autoComplete="billing postal-code" required />
        </fieldset>

        {summary.package || packageOffer ? (
          <fieldset>
            <legend>Your package</legend>
            {summary.package ? (
              <p>
                A session of <strong>{summary.package.name}</strong> pays for this treatment.{" "}
                {payInstead ? (
                  <button type="submit" name="intent" value="stop-package" className="link-button">
                    Pay for it instead
                  </button>
                ) : null}
              </p>
            ) : packageOffer ? (
              <p>
                You have {packageOffer.left} {packageOffer.left === 1 ? "session" : "sessions"} of <strong>{packageOffer.name}</strong> left for this
                treatment.{" "}
                <button type="submit" name="intent" value="use-package" className="button-secondary">
                  Use a package session
                </button>
              </p>
            ) : null}
          </fieldset>
        ) : null}

        <fieldset>
          <legend>Promo code</legend>
          {repriced ? (
            <p>
              {summary.promo?.code ? (
                <>
                  <strong>{summary.promo.code}</strong> is on this booking at our booking system's price.{" "}
                </>
              ) : null}
              <button type="submit" name="intent" value="cancel-booking" className="button-secondary">
                Cancel booking
              </button>
            </p>
          ) : summary.promo?.applied ? (
            <p>
              {summary.promo.kind === "coupon" ? "Coupon " : null}
              <strong>{summary.promo.code}</strong> applied.{" "}
              <button type="submit" name="intent" value="remove-promo" className="link-button">
                {summary.promo.kind === "coupon" ? "Remove coupon" : "Remove promo code"}
              </button>
            </p>
          ) : (
            <>
              {coupons.length > 0 ? (
                <fieldset>
                  <legend>Your coupons</legend>
                  {getCollectionProps(fields.coupon, { type: "radio", options: coupons.map((c) => c.number), ariaAttributes: false }).map(({ key, ...props }, index) => (
                    <label key={key} className="check">
                      <input {...props} defaultChecked={coupons.length === 1 || props.defaultChecked} /> Coupon {coupons[index].number}: {coupons[index].description}{" "}
                      <span className="muted">
                        saves {coupons[index].saving}
                        {coupons[index].expiresOn ? `, use by ${formatDay(coupons[index].expiresOn!, "MMM D, YYYY")}` : ""}
                      </span>
                    </label>
                  ))}
                  <button type="submit" name="intent" value="apply-coupon" className="button-secondary">
                    Apply coupon
                  </button>
                  <FieldMessage meta={fields.coupon} />
                </fieldset>
              ) : null}
              {summary.promo && !summary.promo.applied ? <p className="field-error">{summary.promo.message}</p> : null}
              <label htmlFor={fields.promo.id}>Promo code</label>
              <div className="inline-field">
                <input {...getInputProps(fields.promo, { type: "text" })} autoComplete="off" autoFocus={focusPromo} />
                <button type="submit" name="intent" value="apply-promo" className="button-secondary">
                  Apply
                </button>
              </div>
              <FieldMessage meta={fields.promo} />
            </>
          )}
        </fieldset>

        <fieldset>
          <legend>Cancellation policy</legend>
          <p>
            Please cancel or reschedule at least {NO_SHOW_WINDOW_HOURS} hours before your appointment. If you cancel or
            reschedule later, don't come, or arrive more than {LATE_ARRIVAL_MINUTES} minutes late, a {formatMoney(NO_SHOW_FEE)}{" "}
            no-show fee is charged to your card.
          </p>
          <CheckboxField meta={fields.policy} value="agreed" required>
            I agree to the cancellation policy
          </CheckboxField>
        </fieldset>

        <p>
          <button type="submit" name="intent" value="confirm" className="button-large" disabled={confirming}>
            {confirming ? "Confirming…" : summary.prepaid ? `Pay ${formatMoney(summary.dueNow)} and book` : "Book appointment"}
          </button>
        </p>
      </SchemaForm>
    </>
  );
}
