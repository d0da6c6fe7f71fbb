import { getInputProps, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { data, href, Link, useNavigation } from "react-router";
import { ClinicPicker } from "~/components/clinic-picker";
import { ErrorMessage } from "~/components/error-message";
import { Field, FieldMessage, SchemaForm, useFocusFirst, useSchemaForm } from "~/components/forms";
import {
  GIFT_CARD_MAX_DAYS_AHEAD,
  GIFT_MESSAGE_MAX_LENGTH,
  GiftCardBalanceSchema,
  GiftCardSchema,
} from "~/domain/purchases";
import { endDateLabel, NO_EXPIRY_LABEL } from "~/domain/sentinel-dates";
import { addDays, clinicToday, formatDay } from "~/lib/dates";
import { formDataOf, formText, parseSubmission, refuseForm } from "#server/forms.server";
import { consume } from "#server/limits/policy.server";
import { buyOffer } from "#server/purchases/buy.server";
import {
  amountChoices,
  giftCardBalance,
  giftCardOffer,
  type AmountChoice,
  type BalanceView,
} from "#server/purchases/gift-cards.server";
import { clinicChoice, giftCardOccasions, giftCardTemplates, homeClinic } from "#server/purchases/offers.server";
import { currentUser } from "#server/request-context.server";
import { guardAction, orUnavailable, OUTAGE_MESSAGE, unlessUnavailable } from "#server/unavailable.server";
import { siteOrigin } from "#server/site.server";
import { buyAnswer, signInToBuy } from "~/routes/purchases/buy-answer.server";
import type { Route } from "./+types/buy";
import { FORMS } from "~/domain/form-contracts";

export const meta: Route.MetaFunction = () => [
  { title: "Gift cards | Glow Clinic" },
  {
    name: "description",
    content: "Send a Glow Clinic gift card by email, on the day you choose, and check a card's balance.",
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  const asked = new URL(request.url).searchParams.get("clinic");
  const { clinics, center: askedCenter } = await orUnavailable(() => clinicChoice(services, asked));
  if (asked && !askedCenter)
    return data(
      {
        clinics,
        clinic: null,
        amounts: [],
        occasions: [],
        unknownClinic: true,
        purchaseKey: "",
        today: "",
        lastDay: "",
      },
      { status: 404 },
    );
  const user = asked ? null : await currentUser(context);
  const center = askedCenter ?? (await orUnavailable(() => homeClinic(services, user?.centerId)));
  const [templates, occasions] = center
    ? await orUnavailable(() => Promise.all([giftCardTemplates(services, center.id), giftCardOccasions(services)]))
    : [null, []];
  const today = center ? clinicToday(center.timeZone) : "";
  return {
    clinics,
    clinic: center ? { slug: center.slug, name: center.name } : null,
    amounts: templates ? amountChoices(templates) : [],
    occasions,
    unknownClinic: false,
    purchaseKey: crypto.randomUUID(),
    today,
    lastDay: today ? addDays(today, GIFT_CARD_MAX_DAYS_AHEAD) : "",
  };
}

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const formData = await formDataOf(request);
  const intent = formText(formData, "intent");

  if (intent === "balance") {
    const submission = parseSubmission(formData, GiftCardBalanceSchema);
    if (submission.status !== "success") return refuseForm(submission, { intent });
    // Over the limit: said next to the field, the number kept, with how long to wait.
    const limited = await consume(services, "giftCardBalance", { ip: context.clientIp });
    if (!limited.ok) {
      return refuseForm(submission, {
        intent,
        status: 429,
        fieldErrors: { number: [limited.message] },
        headers: { "Retry-After": String(limited.retryAfterSeconds) },
      });
    }
    const found = await unlessUnavailable(
      () => giftCardBalance(services, submission.value.number),
      () => "outage" as const,
    );
    if (found === "outage") return refuseForm(submission, { intent, status: 503, formErrors: [OUTAGE_MESSAGE] });
    if (!found)
      return refuseForm(submission, {
        intent,
        status: 404,
        fieldErrors: { number: ["We could not find a gift card with that number. Please check it and try again."] },
      });
    return { intent, result: submission.reply(), balance: found };
  }

  const submission = parseSubmission(formData, GiftCardSchema);
  if (submission.status !== "success") return refuseForm(submission, { intent: "buy" });
  const user = await currentUser(context);
  if (!user)
    return signInToBuy(context, `${href("/gift-cards")}?clinic=${encodeURIComponent(submission.value.clinic)}`);
  const checked = await unlessUnavailable(
    async () => {
      const { center } = await clinicChoice(services, submission.value.clinic);
      return center ? giftCardOffer(services, center, submission.value) : null;
    },
    () => "outage" as const,
  );
  if (checked === "outage") return refuseForm(submission, { intent: "buy", status: 503, formErrors: [OUTAGE_MESSAGE] });
  if (!checked)
    return refuseForm(submission, {
      intent: "buy",
      status: 404,
      formErrors: ["No clinic has that address. Please choose one from the list."],
    });
  if (checked.kind === "invalid") return refuseForm(submission, { intent: "buy", fieldErrors: checked.fieldErrors });
  const outcome = await buyOffer(services, {
    user,
    formKey: submission.value.purchaseKey,
    offer: checked.offer,
    origin: siteOrigin(request, context),
  });
  return buyAnswer(context, submission, outcome, {
    intent: "buy" as const,
    backTo: `${href("/gift-cards")}?clinic=${encodeURIComponent(submission.value.clinic)}`,
  });
});

/** The occasion's design: a colour scheme of the design system, by its place in the list. */
const DESIGNS = ["design-rose", "design-gold", "design-sage", "design-plum"];

/** ", valid until Mar 1, 2027", ", with no expiry" for Zenoti's stand-in end date, or nothing. */
function expiryWords(expires: string | null | undefined): string {
  const label = endDateLabel(expires);
  if (!label) return "";
  return label === NO_EXPIRY_LABEL ? ", with no expiry" : `, valid until ${label}`;
}

export default function GiftCards({ loaderData, actionData }: Route.ComponentProps) {
  const { clinics, clinic, amounts, occasions, unknownClinic, purchaseKey, today, lastDay } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const buyAnswer = actionData && "intent" in actionData && actionData.intent === "buy" ? actionData.result : null;
  const balanceAnswer = actionData && "intent" in actionData && actionData.intent === "balance" ? actionData : null;
  const balanceForm = useSchemaForm(FORMS.GiftCardBalanceSchema, {
    id: "gift-balance",
    lastResult: balanceAnswer?.result ?? null,
  });
  const balance = balanceAnswer && "balance" in balanceAnswer ? (balanceAnswer.balance as BalanceView) : null;
  return (
    <section className="page">
      <h1>Gift cards</h1>
      <p>Send a Glow Clinic gift card by email, on the day you choose. It pays for treatments at the clinic.</p>
      <ClinicPicker
        clinics={clinics}
        selected={clinic?.slug ?? null}
        unknownClinic={unknownClinic}
        submitLabel="Show gift cards"
      />

      {clinic && amounts.length > 0 ? (
        <GiftCardForm
          key={clinic.slug}
          clinic={clinic}
          amounts={amounts}
          occasions={occasions}
          purchaseKey={purchaseKey}
          today={today}
          lastDay={lastDay}
          lastResult={buyAnswer}
          busy={busy}
        />
      ) : clinic ? (
        <p>This clinic does not sell gift cards online. Please ask the clinic.</p>
      ) : (
        <p>Choose a clinic to send one of its gift cards.</p>
      )}

      <section aria-labelledby="balance-heading" className="narrow">
        <h2 id="balance-heading">Check a balance</h2>
        <SchemaForm schemaForm={balanceForm} className="form">
          <Field meta={balanceForm.fields.number} label="Gift card number" inputMode="numeric" autoComplete="off" />
          <button type="submit" name="intent" value="balance" className="button-secondary" disabled={busy}>
            Check balance
          </button>
        </SchemaForm>
        {balance ? (
          <p className="notice" role="status">
            Gift card ending {balance.number.slice(-4)}: {balance.balance} left of {balance.value}
            {expiryWords(balance.expires)} ({balance.status}).
          </p>
        ) : null}
      </section>
      <p>
        <Link to={href("/account/gift-cards")}>Your gift cards</Link> · <Link to={href("/packages")}>Packages</Link> ·{" "}
        <Link to={href("/memberships")}>Memberships</Link>
      </p>
    </section>
  );
}

/**
 * The gift card's form, made anew for each clinic (its amounts, designs and today are the clinic's:
 * after a clinic is chosen with JavaScript, the form starts from that clinic's defaults).
 */
function GiftCardForm({
  clinic,
  amounts,
  occasions,
  purchaseKey,
  today,
  lastDay,
  lastResult,
  busy,
}: {
  clinic: { slug: string; name: string };
  amounts: AmountChoice[];
  occasions: { id: string; name: string }[];
  purchaseKey: string;
  today: string;
  lastDay: string;
  lastResult: SubmissionResult<string[]> | null;
  busy: boolean;
}) {
  const buyForm = useSchemaForm(FORMS.GiftCardSchema, {
    id: "gift-card",
    lastResult,
    defaultValue: {
      templateId: amounts[1]?.templateId ?? amounts[0]?.templateId ?? null,
      occasionId: occasions[0]?.id ?? null,
      deliveryDate: today,
    },
  });
  const { fields } = buyForm;
  const anyAmount = amounts.find((a) => a.custom)?.custom;
  return (
    <section aria-labelledby="buy-heading" className="narrow">
      <h2 id="buy-heading">Send a gift card from {clinic.name}</h2>
      <SchemaForm schemaForm={buyForm} className="form" action={`${href("/gift-cards")}?clinic=${clinic.slug}`}>
        <input type="hidden" name="clinic" value={clinic.slug} />
        <input type="hidden" name="purchaseKey" value={purchaseKey} />
        <RadioChoices
          meta={fields.templateId}
          legend="Amount"
          options={amounts.map((a) => ({ value: a.templateId, label: a.label }))}
        />
        {anyAmount ? (
          <Field
            meta={fields.customAmount}
            label="Another amount, in dollars"
            inputMode="decimal"
            hint={`From ${anyAmount.min} to ${anyAmount.max}, when you choose "Another amount".`}
          />
        ) : null}
        <RadioChoices
          meta={fields.occasionId}
          legend="Design"
          className="designs"
          options={occasions.map((o, index) => ({
            value: o.id,
            label: o.name,
            className: `design ${DESIGNS[index % DESIGNS.length]}`,
          }))}
        />
        <Field meta={fields.recipientName} label="Recipient's name" autoComplete="off" />
        <Field meta={fields.recipientEmail} label="Recipient's email" type="email" autoComplete="off" />
        <MessageField meta={fields.message} />
        <Field
          meta={fields.deliveryDate}
          label="Send it on"
          type="date"
          min={today}
          max={lastDay}
          hint={`We email the card that morning, ${clinic.name} time. Today is ${formatDay(today, "MMM D, YYYY")}.`}
        />
        <p className="muted">
          You pay on the clinic&rsquo;s secure card page. Gift cards cannot be bought with loyalty points.
        </p>
        <button type="submit" name="intent" value="buy" disabled={busy}>
          Continue to payment
        </button>
      </SchemaForm>
    </section>
  );
}

/** The card's message, a text area of the schema form. */
function MessageField({ meta }: { meta: FieldMetadata<unknown, Record<string, unknown>, string[]> }) {
  return (
    <div className="field">
      <label htmlFor={meta.id}>Message (optional)</label>
      <textarea
        {...getInputProps(meta, { type: "text" })}
        rows={3}
        maxLength={GIFT_MESSAGE_MAX_LENGTH}
        autoFocus={useFocusFirst(meta.name)}
      />
      <FieldMessage meta={meta} />
    </div>
  );
}

/** A group of radio buttons of a schema form, as choice tiles; the first is focused when the group is the first thing to correct. */
function RadioChoices({
  meta,
  legend,
  options,
  className,
}: {
  meta: FieldMetadata<unknown, Record<string, unknown>, string[]>;
  legend: string;
  options: { value: string; label: string; className?: string }[];
  className?: string;
}) {
  const focus = useFocusFirst(meta.name);
  return (
    <fieldset
      className={className ? `choice-group ${className}` : "choice-group"}
      aria-describedby={meta.errors ? meta.errorId : undefined}
    >
      <legend>{legend}</legend>
      {options.map((option, index) => (
        <label key={option.value} className={option.className ? `check ${option.className}` : "check"}>
          <input
            {...radioProps(meta, option.value)}
            id={`${meta.id}-${index}`}
            autoFocus={index === 0 ? focus : undefined}
          />
          <span>{option.label}</span>
        </label>
      ))}
      <FieldMessage meta={meta} />
    </fieldset>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}

/**
 * A radio's props from its field: the schema's text limits (a length or a pattern of the value) say
 * nothing about a radio, and HTML does not allow them on one.
 */
function radioProps(meta: FieldMetadata<unknown, Record<string, unknown>, string[]>, value: string) {
  const {
    minLength: _minLength,
    maxLength: _maxLength,
    pattern: _pattern,
    ...props
  } = getInputProps(meta, { type: "radio", value });
  return props;
}
