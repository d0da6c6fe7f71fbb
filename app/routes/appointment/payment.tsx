import { data, Form, href, redirect, useNavigation } from "react-router";
import { FormError, FieldError } from "~/components/field";
import { NO_SHOW_FEE, NO_SHOW_WINDOW_HOURS, LATE_ARRIVAL_MINUTES } from "~/domain/booking";
import { normalizePromoCode, PROMO_MESSAGES } from "~/domain/discounts";
import { BILLING_LIMITS, clipBilling, PAYMENT_MESSAGES, type Billing } from "~/domain/payment";
import { formatMoney } from "~/lib/money";
import { US_STATES } from "~/lib/us-states";
import { findService, requireClinic } from "#server/booking/catalog-view.server";
import { quote } from "#server/booking/checkout.server";
import { dropHoldClaim } from "#server/booking/hold-limits.server";
import { promoAttemptLimit } from "#server/booking/promo-limits.server";
import { HOLD_EXPIRED_MESSAGE, newPayKey, requireDraft, setConfirmed, setDraft, type Draft } from "#server/booking/draft.server";
import { cardCapturePage, confirmAndPay, savedCards } from "#server/booking/payment-step.server";
import { formDataOf } from "#server/forms.server";
import { flashToast } from "#server/toast.server";
import type { Route } from "./+types/payment";

export const CARD_FETCH_ERROR = "Error while fetching card.. please click to try again";
export const CHECKOUT_MESSAGES = {
  busy: "Your booking is still being confirmed. Please wait a moment and press the button again; you won't be charged twice.",
  pending:
    "We haven't heard back from our booking system yet, so we can't say your booking is complete. Nothing is lost and you won't be charged twice: please wait a moment and press the button again.",
  undone: "We couldn't finish your booking, and your card was not charged. The time was released; please choose a time again.",
} as const;

export const meta: Route.MetaFunction = () => [{ title: "Payment | Glow Clinic" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context;
  const { session, draft } = await requireDraft(context, "details");
  const { center, catalog } = await requireClinic(services, draft.centerId);
  const [summary, saved] = await Promise.all([quote(services, center, catalog, draft), savedCards(services, draft)]);
  const cards = saved ?? [];
  const cardError = saved ? null : CARD_FETCH_ERROR;

  // Back from the hosted card page: what happened is read from the back end, never the URL.
  let cardFailed = false;
  const next: Draft = { ...draft };
  if (draft.cardAttemptAt && !cardError) {
    const added = cards.some((c) => c.createdAt && Date.parse(c.createdAt) >= Date.parse(draft.cardAttemptAt!));
    cardFailed = !added;
    next.cardAttemptAt = undefined;
  }
  next.payKey ??= newPayKey();
  const changed = next.payKey !== draft.payKey || next.cardAttemptAt !== draft.cardAttemptAt;
  if (changed) setDraft(session, next);
  const service = findService(catalog, draft.serviceId)!;
  return {
      clinic: center.name,
      service: service.displayName,
      summary,
      cards: cards.map((c) => ({ id: c.accountId, label: `${c.brand} ending ${c.lastFour}`, expiry: c.expiry })).reverse(),
      cardError,
      cardFailed,
      billing: draft.billing ?? null,
      payKey: next.payKey,
  };
}

function readBilling(form: FormData): Billing {
  const read = (name: string) => String(form.get(name) ?? "").slice(0, 120);
  return { address: read("address"), city: read("city"), state: read("state"), zip: read("zip") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context;
  const { session, draft } = await requireDraft(context, "details");
  const { center, catalog } = await requireClinic(services, draft.centerId);
  const form = await formDataOf(request);
  const intent = String(form.get("intent") ?? "");
  const billing = readBilling(form);
  const agreed = form.get("policy") === "agreed";
  const withBilling: Draft = { ...draft, billing: clipBilling(billing) };
  const keep = { billing, agreed, promo: String(form.get("promo") ?? "").slice(0, 40) };

  if (intent === "add-card") {
    const returnTo = `${new URL(request.url).origin}${href("/appointment/payment")}`;
    const page = await cardCapturePage(services, { guestId: draft.guestId!, centerId: center.id, returnTo });
    if (page.kind !== "page") return data({ errors: { card: CARD_FETCH_ERROR }, keep }, { status: page.kind === "foreign-origin" ? 502 : 503 });
    setDraft(session, { ...withBilling, cardAttemptAt: new Date(Date.now() - 1000).toISOString() });
    return redirect(page.uri);
  }

  if (intent === "apply-promo" || intent === "remove-promo") {
    if (intent === "remove-promo") {
      setDraft(session, { ...withBilling, promoCode: undefined });
      return redirect(href("/appointment/payment"));
    }
    const code = normalizePromoCode(keep.promo);
    if (!code) return data({ errors: { promo: PROMO_MESSAGES.empty }, keep }, { status: 400 });
    const limited = promoAttemptLimit(services, { clientIp: context.clientIp, bookingId: draft.hold!.bookingId });
    if (limited) return data({ errors: { promo: limited.message }, keep }, { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } });
    const trial = await quote(services, center, catalog, { ...draft, promoCode: code });
    if (!trial.promo?.applied) return data({ errors: { promo: trial.promo?.message ?? PROMO_MESSAGES.unknown }, keep }, { status: 400 });
    setDraft(session, { ...withBilling, promoCode: code });
    return redirect(href("/appointment/payment"));
  }

  if (intent !== "confirm") return data({ errors: { form: "Please choose an action." }, keep }, { status: 400 });

  const payKey = String(form.get("payKey") ?? "");
  if (!payKey || payKey !== draft.payKey) {
    return data({ errors: { form: "This page was out of date. Please check the details and confirm again." }, keep }, { status: 409 });
  }
  const outcome = await confirmAndPay(services, { payKey, draft, center, catalog, cardId: String(form.get("card") ?? ""), billing, agreed });
  if (outcome.kind === "cards-unavailable") return data({ errors: { card: CARD_FETCH_ERROR }, keep }, { status: 503 });
  if (outcome.kind === "invalid") {
    setDraft(session, withBilling);
    return data({ errors: outcome.errors, keep }, { status: 400 });
  }
  const toast = (title: string) => flashToast(context, { type: "error", title });
  // Booked or not, the hold is used up: its place under the address's cap is free again.
  if (outcome.kind !== "busy" && outcome.kind !== "pending" && outcome.kind !== "promo-used") dropHoldClaim(services.rateLimiter, draft.hold?.claim);
  switch (outcome.kind) {
    case "booked": {
      const { attempt } = outcome;
      setConfirmed(session, { appointmentId: attempt.appointmentId!, invoiceId: attempt.invoiceId!, guestId: attempt.guestId, centerId: attempt.centerId });
      setDraft(session, null);
      return redirect(href("/appointment/confirmation/:appointmentId", { appointmentId: attempt.appointmentId! }));
    }
    case "busy":
      return data({ errors: { form: CHECKOUT_MESSAGES.busy }, keep }, { status: 409 });
    case "pending":
      return data({ errors: { form: CHECKOUT_MESSAGES.pending }, keep }, { status: 503 });
    case "promo-used":
      toast(PROMO_MESSAGES.notValid(outcome.code));
      setDraft(session, { ...withBilling, payKey: undefined });
      return redirect(href("/appointment/payment"));
    case "declined":
      toast(PAYMENT_MESSAGES.failed);
      if (draft.doneBy) {
        // The employee flow: the stored ids are cleared and the employee starts again at the clinic.
        setDraft(session, { centerId: center.id, addOnIds: [], therapistId: null, doneBy: draft.doneBy });
        return redirect(`${href("/appointment/service")}?id=${encodeURIComponent(center.id)}`);
      }
      break;
    case "undone":
      toast(CHECKOUT_MESSAGES.undone);
      break;
    case "hold-lost":
      toast(HOLD_EXPIRED_MESSAGE);
      break;
  }
  setDraft(session, { ...withBilling, hold: undefined, payKey: undefined });
  return redirect(`${href("/appointment/time")}?date=${draft.date ?? ""}`);
}

export default function PaymentStep({ loaderData, actionData }: Route.ComponentProps) {
  const { clinic, service, summary, cards, cardError, cardFailed, payKey } = loaderData;
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const billing = actionData?.keep.billing ?? loaderData.billing ?? { address: "", city: "", state: "", zip: "" };
  const agreed = actionData?.keep.agreed ?? false;
  const navigation = useNavigation();
  const confirming = navigation.state === "submitting" && navigation.formData?.get("intent") === "confirm";
  const firstError = ["card", "billing", "state", "policy", "promo"].find((k) => errors[k]);
  return (
    <>
      <h1>Payment</h1>
      <p>
        {service} at {clinic}.
      </p>
      <FormError message={errors.form} />

      <section aria-labelledby="summary-heading" className="summary">
        <h2 id="summary-heading">Price summary</h2>
        <table>
          <tbody>
            {summary.lines.map((line) => (
              <tr key={line.name}>
                <th scope="row">{line.name}</th>
                <td>
                  {line.discount > 0 ? (
                    <>
                      <s>{formatMoney(line.price)}</s> {formatMoney(line.price - line.discount)}
                    </>
                  ) : (
                    formatMoney(line.price)
                  )}
                </td>
              </tr>
            ))}
            {summary.discount > 0 ? (
              <tr>
                <th scope="row">Discount ({summary.promo?.code})</th>
                <td>−{formatMoney(summary.discount)}</td>
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
      </section>

      <Form method="post" className="form" noValidate>
        <input type="hidden" name="payKey" value={payKey} />

        <fieldset aria-describedby={errors.card ? "card-error" : undefined}>
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
          {cards.map((card, index) => (
            <label key={card.id} className="check">
              <input type="radio" name="card" value={card.id} defaultChecked={index === 0} /> {card.label}{" "}
              <span className="muted">expires {card.expiry}</span>
            </label>
          ))}
          <FieldError id="card-error" message={errors.card} />
          <button type="submit" name="intent" value="add-card" className="button-secondary" formNoValidate autoFocus={firstError === "card"}>
            {cards.length > 0 ? "Add another card" : "Add a card"}
          </button>
          <p className="muted">You'll enter your card on our payment provider's secure page; we never see the number.</p>
        </fieldset>

        <fieldset aria-describedby={errors.billing || errors.state ? "billing-error" : undefined}>
          <legend>Billing address</legend>
          <FieldError id="billing-error" message={errors.billing} />
          <label htmlFor="address">Street address</label>
          <input id="address" name="address" autoComplete="billing street-address" defaultValue={billing.address} maxLength={BILLING_LIMITS.address} autoFocus={firstError === "billing"} aria-invalid={errors.billing ? true : undefined} />
          <label htmlFor="city">City</label>
          <input id="city" name="city" autoComplete="billing address-level2" defaultValue={billing.city} maxLength={BILLING_LIMITS.city} />
          <label htmlFor="state">State</label>
          <select id="state" name="state" defaultValue={billing.state} autoComplete="billing address-level1" aria-invalid={errors.state ? true : undefined} aria-describedby={errors.state ? "state-error" : undefined} autoFocus={firstError === "state"}>
            <option value="">Select state</option>
            {US_STATES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
          <FieldError id="state-error" message={errors.state} />
          <label htmlFor="zip">ZIP code</label>
          <input id="zip" name="zip" inputMode="numeric" autoComplete="billing postal-code" defaultValue={billing.zip} maxLength={BILLING_LIMITS.zip} />
        </fieldset>

        <fieldset>
          <legend>Promo code</legend>
          {summary.promo?.applied ? (
            <p>
              <strong>{summary.promo.code}</strong> applied.{" "}
              <button type="submit" name="intent" value="remove-promo" className="link-button" formNoValidate>
                Remove promo code
              </button>
            </p>
          ) : (
            <>
              {summary.promo && !summary.promo.applied ? <p className="field-error">{summary.promo.message}</p> : null}
              <label htmlFor="promo">Promo code</label>
              <div className="inline-field">
                <input id="promo" name="promo" defaultValue={actionData?.keep.promo ?? ""} maxLength={32} autoComplete="off" aria-invalid={errors.promo ? true : undefined} aria-describedby={errors.promo ? "promo-error" : undefined} autoFocus={firstError === "promo"} />
                <button type="submit" name="intent" value="apply-promo" className="button-secondary" formNoValidate>
                  Apply
                </button>
              </div>
              <FieldError id="promo-error" message={errors.promo} />
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
          <label className="check">
            <input type="checkbox" name="policy" value="agreed" defaultChecked={agreed} aria-invalid={errors.policy ? true : undefined} aria-describedby={errors.policy ? "policy-error" : undefined} autoFocus={firstError === "policy"} /> I agree to
            the cancellation policy
          </label>
          <FieldError id="policy-error" message={errors.policy} />
        </fieldset>

        <p>
          <button type="submit" name="intent" value="confirm" className="button-large" disabled={confirming}>
            {confirming ? "Confirming…" : summary.prepaid ? `Pay ${formatMoney(summary.dueNow)} and book` : "Book appointment"}
          </button>
        </p>
      </Form>
    </>
  );
}
