import { getCollectionProps, getInputProps } from "@conform-to/react";
import { href, Link, redirect, redirectDocument, useNavigation } from "react-router";
import {
  CheckboxField,
  ErrorSummary,
  Field,
  FieldMessage,
  SchemaForm,
  SelectField,
  useFocusFirst,
  useSchemaForm,
} from "~/components/forms";
import { useStartHere } from "~/components/route-focus";
import { cancellationPolicyLine } from "~/domain/booking";
import { PaymentSchema } from "~/domain/booking-forms";
import { PAYMENT_MESSAGES, type PaymentArrival } from "~/domain/payment";
import { formatDay } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { formatPhone } from "~/lib/phone";
import { US_STATES } from "~/lib/us-states";
import { bookingCallPriority } from "#server/booking/call-priority.server";
import { requireDraft, setConfirmed, setDraft, type Draft } from "#server/booking/draft.server";
import { logger } from "#server/observability/logger.server";
import { endEntriesOnBooking } from "#server/waitlist/waitlist.server";
import { flashNotBooked } from "#server/booking/not-booked.server";
import {
  CHECKOUT_MESSAGES,
  paymentStepAction,
  paymentStepPage,
  type PaymentStepExit,
} from "#server/booking/payment-page.server";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { currentUser, requestSession, visitAttribution, type RequestContext } from "#server/request-context.server";
import { siteOrigin } from "#server/site.server";
import { flashToast } from "#server/toast.server";
import { guardAction } from "#server/unavailable.server";
import type { Route } from "./+types/payment";
import { FORMS } from "~/domain/form-contracts";

/** The step's calls are those of a booking that holds a slot: first in line for the chain's calls (decision 036). */
export const middleware: Route.MiddlewareFunction[] = [bookingCallPriority];

export const meta: Route.MetaFunction = () => [
  { title: "Payment | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

/** The signed-in user and the visit's attribution: who the payment step's use cases act for. */
async function visitorOf(context: RequestContext) {
  return { user: await currentUser(context), attribution: visitAttribution(context) };
}

/**
 * Where an exit from the payment step takes the visitor, with the draft kept and what the next page
 * says. A booking made ends the guest's waitlist entries for that clinic and day: what they waited
 * for is taken (decision 058).
 */
async function exitResponse(context: RequestContext, exit: PaymentStepExit, draft: Draft): Promise<Response> {
  const session = requestSession(context);
  const paymentStep = href("/appointment/payment");
  switch (exit.kind) {
    case "verify":
      setDraft(session, exit.draft);
      // A page on the payment provider's side is a document of its own: never fetched as route data.
      return redirectDocument(exit.uri);
    case "again":
      if (exit.draft) setDraft(session, exit.draft);
      if (exit.problem) flashToast(context, { type: "error", title: exit.problem });
      return redirect(paymentStep);
    case "booked":
      await endEntriesOnBooking(context.services, {
        centerId: exit.confirmed.centerId,
        date: (exit.confirmed.visit?.start ?? draft.hold?.slot ?? "").slice(0, 10),
        contacts: [draft.details?.email, draft.details?.phone, (await currentUser(context))?.email],
      }).catch((error: unknown) =>
        logger.warn("waitlist entries not ended", { error: error instanceof Error ? error.message : String(error) }),
      );
      setConfirmed(session, exit.confirmed);
      setDraft(session, null);
      return redirect(href("/appointment/confirmation/:appointmentId", { appointmentId: exit.appointmentId }));
    case "not-booked":
      flashNotBooked(context, exit.notBooked);
      setDraft(session, exit.draft);
      if (exit.notBooked.resume === "service")
        return redirect(`${href("/appointment/service")}?id=${encodeURIComponent(exit.draft.centerId)}`);
      return redirect(`${href("/appointment/time")}?date=${exit.draft.date ?? ""}`);
    case "cancelled":
      flashToast(context, { type: "info", title: CHECKOUT_MESSAGES.cancelled });
      setDraft(session, exit.draft);
      return redirect(`${href("/appointment/time")}?date=${exit.draft.date ?? ""}`);
  }
}

export async function loader({ context }: Route.LoaderArgs) {
  const { session, draft } = await requireDraft(context, "details");
  const outcome = await paymentStepPage(context.services, draft, await visitorOf(context));
  if (outcome.kind === "left") throw await exitResponse(context, outcome.exit, draft);
  if (outcome.draft) setDraft(session, outcome.draft);
  return outcome.page;
}

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { session, draft } = await requireDraft(context, "details");
  const submission = parseSubmission(await formDataOf(request), PaymentSchema);
  if (submission.status !== "success") return refuseForm(submission);
  // The payment step's own address on the site's origin (never a forwarded host): hosted pages send the visitor back here.
  const returnTo = `${siteOrigin(request, context)}${href("/appointment/payment")}`;
  const outcome = await paymentStepAction(context.services, {
    ...(await visitorOf(context)),
    draft,
    form: submission.value,
    clientIp: context.clientIp,
    returnTo,
  });
  switch (outcome.kind) {
    case "refused": {
      if (outcome.draft) setDraft(session, outcome.draft);
      const { status, formErrors, fieldErrors, retryAfterSeconds } = outcome;
      return refuseForm(submission, {
        status,
        formErrors,
        fieldErrors,
        headers: retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : undefined,
      });
    }
    case "card-page":
      setDraft(session, outcome.draft);
      // The card page is a document of its own, on this origin or the provider's: never fetched as route data.
      return redirectDocument(outcome.uri);
    default:
      return exitResponse(context, outcome, draft);
  }
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

/**
 * Focus on the page's arrival, as a prop to spread: back from the hosted card page the guest is put
 * on the next thing to do. `autofocus` is in the page the server sends, so it works with JavaScript
 * and without (that page is always a full load). Spread, never `autoFocus={undefined}`, so that a
 * field's own focus after a failed submit is not overridden.
 */
function arriveAt(arrival: PaymentArrival | null, at: PaymentArrival): { autoFocus?: true } {
  return arrival === at ? { autoFocus: true } : {};
}

export default function PaymentStep({ loaderData, actionData }: Route.ComponentProps) {
  const {
    clinic,
    clinicPhone,
    policy,
    arrival,
    service,
    summary,
    repriced,
    notice,
    cards,
    cardError,
    cardFailed,
    payKey,
    packageOffer,
    payInstead,
    membership,
    clinicSlug,
    coupons,
  } = loaderData;
  const navigation = useNavigation();
  const confirming = navigation.state === "submitting" && navigation.formData?.get("intent") === "confirm";
  const payment = useSchemaForm(FORMS.PaymentSchema, {
    id: "payment",
    lastResult: actionData?.result,
    defaultValue: { ...loaderData.billing, card: cards[0]?.id ?? null },
  });
  const { fields } = payment;
  const focusCard = useFocusFirst(fields.card.name);
  const focusPromo = useFocusFirst(fields.promo.name);
  // A guest with no card yet starts at adding one, unless the page has something to say first.
  const startHere = useStartHere(
    arrival === null &&
      cards.length === 0 &&
      !cardFailed &&
      !cardError &&
      !repriced &&
      !notice &&
      Object.keys(payment.form.allErrors).length === 0,
  );
  // The promo code's disclosure is open when it has something to say or to offer.
  const promoOpen = Boolean(
    repriced || summary.promo || coupons.length > 0 || fields.promo.errors || fields.coupon.errors,
  );
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
                <th scope="row">
                  {summary.promo?.code
                    ? `${summary.promo.kind === "coupon" ? "Coupon" : "Promo code"} ${summary.promo.code}`
                    : "Discount"}
                </th>
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
        ) : null}
      </section>

      <SchemaForm schemaForm={payment} summary={false} className="form">
        <input type="hidden" name="payKey" value={payKey} />
        {/* What the button says is due now: a back end asking another amount is not charged. */}
        <input type="hidden" name="shownDue" value={summary.dueNow} />

        <fieldset>
          <legend>Card</legend>
          {cardFailed ? (
            <p className="field-error" role="alert" tabIndex={-1} {...arriveAt(arrival, "card")}>
              {PAYMENT_MESSAGES.failed}. Your card was not added; please try another card.
            </p>
          ) : null}
          {cardError ? (
            <p className="field-error" role="alert">
              <a href={href("/appointment/payment")}>{cardError}</a>
            </p>
          ) : null}
          {getCollectionProps(fields.card, {
            type: "radio",
            options: cards.map((card) => card.id),
            ariaAttributes: false,
          }).map(({ key, ...props }, index) => (
            <label key={key} className="check">
              <input {...props} autoFocus={index === 0 ? focusCard : undefined} /> {cards[index].label}{" "}
              <span className="muted">expires {cards[index].expiry}</span>
            </label>
          ))}
          <button type="submit" name="intent" value="add-card" className="button-secondary" {...startHere}>
            {cards.length > 0 ? "Add another card" : "Add a card"}
          </button>
          <p className="muted">
            You'll enter your card on our payment provider's secure page; we never see the number.
          </p>
        </fieldset>

        {/* Needed to book, not to add a card or apply a code: marked required here, checked by the schema on "confirm". */}
        <fieldset>
          <legend>Billing address</legend>
          <Field
            meta={fields.address}
            label="Street address"
            autoComplete="billing address-line1"
            required
            {...arriveAt(arrival, "address")}
          />
          <Field
            meta={fields.city}
            label="City"
            autoComplete="billing address-level2"
            required
            {...arriveAt(arrival, "city")}
          />
          <SelectField
            meta={fields.state}
            label="State"
            autoComplete="billing address-level1"
            required
            {...arriveAt(arrival, "state")}
          >
            <option value="">Select state</option>
            {US_STATES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </SelectField>
          <Field
            meta={fields.zip}
            label="ZIP code"
            inputMode="numeric"
            autoComplete="billing postal-code"
            required
            {...arriveAt(arrival, "zip")}
          />
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
                You have {packageOffer.left} {packageOffer.left === 1 ? "session" : "sessions"} of{" "}
                <strong>{packageOffer.name}</strong> left for this treatment.{" "}
                <button type="submit" name="intent" value="use-package" className="button-secondary">
                  Use a package session
                </button>
              </p>
            ) : null}
          </fieldset>
        ) : null}

        <fieldset>
          <legend>Cancellation policy</legend>
          <p>
            Please cancel or reschedule at least {policy.windowHours} hours before your appointment. If you cancel or
            reschedule later, don't come, or arrive more than {policy.lateMinutes} minutes late, a{" "}
            {formatMoney(policy.feeCents)} no-show fee is charged to your card.
          </p>
          <CheckboxField meta={fields.policy} value="agreed" required {...arriveAt(arrival, "policy")}>
            I agree to the cancellation policy
          </CheckboxField>
        </fieldset>

        <div className="pay">
          <button
            type="submit"
            name="intent"
            value="confirm"
            className="button-large"
            disabled={confirming}
            aria-describedby="pay-policy"
          >
            {confirming
              ? "Confirming…"
              : summary.prepaid
                ? `Pay ${formatMoney(summary.dueNow)} and book`
                : "Book appointment"}
          </button>
          {/* What the guest agrees to and why paying here is safe, where they press: short enough for a phone. */}
          <ul className="trust-line" aria-label="Before you book">
            <li id="pay-policy">{cancellationPolicyLine(policy)}</li>
            <li>Your card is entered on our payment provider's secure page; we never see its number.</li>
            {clinicPhone ? (
              <li>
                Questions? Call the clinic at <a href={`tel:+1${clinicPhone}`}>{formatPhone(clinicPhone)}</a>.
              </li>
            ) : null}
          </ul>
        </div>
        {/* After the pay button and closed until wanted: a guest without a code goes from the
            policy to the button without passing it (decision 062). A native disclosure, so it opens
            without JavaScript; open whenever it has something to say. */}
        <details className="promo" open={promoOpen || undefined}>
          <summary>
            {repriced || summary.promo?.applied
              ? "Promo code"
              : coupons.length > 0
                ? "Your coupons and promo codes"
                : "Have a promo code?"}
          </summary>
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
                  {getCollectionProps(fields.coupon, {
                    type: "radio",
                    options: coupons.map((c) => c.number),
                    ariaAttributes: false,
                  }).map(({ key, ...props }, index) => (
                    <label key={key} className="check">
                      <input {...props} defaultChecked={coupons.length === 1 || props.defaultChecked} /> Coupon{" "}
                      {coupons[index].number}: {coupons[index].description}{" "}
                      <span className="muted">
                        saves {coupons[index].saving}
                        {coupons[index].expiresOn
                          ? `, use by ${formatDay(coupons[index].expiresOn!, "MMM D, YYYY")}`
                          : ""}
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
        </details>
      </SchemaForm>
      {membership?.kind === "offer" ? (
        <p className="notice">
          Members of {membership.plan} ({membership.price}) save {membership.saving} on this treatment.{" "}
          <Link to={`${href("/memberships")}?clinic=${clinicSlug}`}>See memberships</Link>
        </p>
      ) : null}
    </>
  );
}
