import { getCollectionProps, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { href, Link, redirect, useNavigation } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";
import { useShowChoice } from "~/components/booking-choice";
import { ButtonLink } from "~/components/button-link";
import { CatalogImage } from "~/components/catalog-image";
import { ClinicNotFound } from "~/components/clinic-not-found";
import { ErrorMessage } from "~/components/error-message";
import { useStartHere } from "~/components/route-focus";
import { FieldMessage, SchemaForm, useFocusFirst, useSchemaForm } from "~/components/forms";
import {
  AREA_REQUIRED,
  CHOOSE_SHOWN,
  NURSE_FROM_LIST,
  SERVICE_REQUIRED,
  ServiceChoiceSchema,
} from "~/domain/booking-forms";
import { isRouteErrorResponse } from "react-router";
import { bookingTotal, chosenLines } from "~/domain/booking-total";
import { isEnhancement, type Service } from "~/domain/catalog";
import { FIXER_NEEDS_FACIAL } from "~/domain/downtime";
import { applyDiscounts } from "~/domain/discounts";
import { coveredByMembership, needsTreatmentArea, serviceKind } from "~/domain/service-kinds";
import { addedMinutesLabel, visitLengthLabel, visitMinutes } from "~/domain/visit-length";
import { INCLUDED_PRICE, PACKAGE_PRICE, packageSessionsLeft, treatmentPriceLabel } from "~/domain/menu";
import { INVALID_CLINIC, MAX_ADD_ONS, TOO_MANY_ADD_ONS } from "~/domain/booking";
import { formatMoney, formatPriceRange } from "~/lib/money";
import { findService, requireClinic } from "#server/booking/catalog-view.server";
import { promoRules } from "#server/booking/checkout.server";
import { bookingLinkOf, draftFromLink, linkQuery } from "#server/booking/booking-link.server";
import { getDraft, setDraft, type Draft } from "#server/booking/draft.server";
import { dropDraftHold } from "#server/booking/holds.server";
import { packageSessionFor } from "#server/guests/holdings.server";
import { bookingGuest } from "#server/booking/signed-in.server";
import { isMember, treatmentPricing, type TreatmentPricing } from "#server/booking/treatment-pricing.server";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { currentUser, requestSession, visitAttribution } from "#server/request-context.server";
import { offerFor, offerPrices } from "#server/pricing/offer-prices.server";
import { guardAction } from "#server/unavailable.server";
import type { Route } from "./+types/service";
import { FORMS } from "~/domain/form-contracts";

/** A returning guest's treatment step, their choices marked, is made once for what it shows (decision 034). */
export const handle = { renderMemo: true };

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Book at ${data.clinic.name} | Glow Clinic` : "Book a treatment | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

function sameChoice(a: Draft, b: Draft) {
  return (
    a.serviceId === b.serviceId &&
    a.therapistId === b.therapistId &&
    [...a.addOnIds].sort().join() === [...b.addOnIds].sort().join()
  );
}

/**
 * A page shown changes nothing (decision 051): a link's choices (?service=&therapist=&date=&promo=
 * from clinic staff, ?guest= from a text) are shown, and carried by the address to the POST that
 * keeps them, here or on the time step.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  const url = new URL(request.url);
  const { center, catalog } = await requireClinic(services, url.searchParams.get("id"));
  const link = bookingLinkOf(url);
  const linked = await draftFromLink(services, {
    center,
    catalog,
    kept: getDraft(requestSession(context)),
    link,
    user: await currentUser(context),
    clientIp: context.clientIp,
    keep: false,
  });
  const { draft, linkedService, treatments, holdings, therapists } = linked;

  if (linkedService && !needsTreatmentArea(linkedService.name)) {
    // The date first, as the step's own links have it; the rest of the link rides along to the time step's POST.
    const query = `${draft.date ? `&date=${draft.date}` : ""}${linkQuery(link, ["date"])}`;
    throw redirect(`${href("/appointment/time")}?${query.slice(1)}`);
  }

  // ?choose= is a pick on this page (show its options); ?service= is a deep link (go on if done).
  const selected = findService(
    treatments,
    url.searchParams.get("choose") ?? url.searchParams.get("service") ?? draft.serviceId,
  );
  const byId = new Map(catalog.map((s) => [s.id, s]));
  const [rules, offers] = await Promise.all([
    promoRules(services, draft.promoCode),
    offerPrices(services, { centerId: center.id, catalog, partnerType: visitAttribution(context).partner }),
  ]);
  const priced = (s: Service, kind: "service" | "addon-service" | "addon-fixer") => {
    // No price of its own: the clinic page's words (a range per area, "Free"), or included with the treatment.
    if (s.price === 0)
      return {
        price: kind === "addon-service" ? INCLUDED_PRICE : treatmentPriceLabel(s, byId, formatPriceRange),
        discounted: null,
      };
    const result = applyDiscounts([{ serviceId: s.id, kind, name: s.name, price: s.price }], rules);
    // A partner's or the clinic's own price, unless a promo code already on the booking gives more.
    const offer = kind === "service" ? offerFor(offers, s.id) : null;
    const best = Math.min(result.total, offer?.price ?? s.price);
    return { price: formatMoney(s.price), discounted: best < s.price ? formatMoney(best) : null };
  };
  // What each add-on adds to the visit is what the back end books for it (decision 045).
  const option = (s: Service) => ({
    id: s.id,
    name: s.displayName,
    description: s.description,
    added: addedMinutesLabel(s),
    ...priced(s, "addon-service"),
  });
  const selectedAddOns = selected
    ? selected.addOnIds.map((id) => byId.get(id)).filter((s): s is Service => Boolean(s))
    : [];
  const enhancements = selectedAddOns.filter(isEnhancement);
  // The spec lists the fixer with a facial's enhancements: a touch-up booked with the facial.
  const fixers = selectedAddOns.filter((s) => serviceKind(s.name) === "fixer");
  const areas = selected && needsTreatmentArea(selected.name) ? selectedAddOns.filter((s) => !isEnhancement(s)) : [];
  const enhancementPrices = enhancements.map((e) => e.price);
  const user = await currentUser(context);
  const selectedSession = selected ? packageSessionFor(holdings, selected.id) : null;
  const [pricing, member] = await Promise.all([
    selected
      ? treatmentPricing(services, {
          center,
          catalog,
          draft,
          service: selected,
          user,
          partnerType: visitAttribution(context).partner,
          packageSession: Boolean(selectedSession),
        })
      : null,
    isMember(services, bookingGuest(user, draft)?.guestId),
  ]);
  // The Fixer on its own is a returning client's: in its place, a new visitor is told how to book it.
  const offered = new Set(treatments.map((t) => t.id));
  const fixerAlone = catalog.find((s) => !s.isAddOn && serviceKind(s.name) === "fixer" && !offered.has(s.id));
  const shownCategories = [
    ...new Set(catalog.filter((s) => offered.has(s.id) || s.id === fixerAlone?.id).map((s) => s.category)),
  ];

  const selectedView =
    selected && pricing
      ? {
          id: selected.id,
          name: selected.displayName,
          needsArea: needsTreatmentArea(selected.name),
          /** What the treatment alone is shown at, for a total with nothing priced yet (an area to choose). */
          priceLabel: selectedSession ? PACKAGE_PRICE : priced(selected, "service").price,
          enhancements: enhancements.map(option),
          fixers: fixers.map((s) => ({ ...option(s), ...priced(s, "addon-fixer") })),
          enhancementRange: enhancementPrices.length
            ? formatPriceRange(Math.min(...enhancementPrices), Math.max(...enhancementPrices))
            : null,
          areas: areas.map(option),
          // Every choice's total is worked out from these, here and in the browser (decision 056).
          pricing,
        }
      : null;
  const chosenAddOns = draft.serviceId === selected?.id ? draft.addOnIds : [];

  return {
    clinic: { id: center.id, name: center.name, slug: center.slug },
    categories: shownCategories.map((category) => ({
      category,
      note: fixerAlone?.category === category ? FIXER_NEEDS_FACIAL : null,
      items: treatments
        .filter((t) => t.category === category)
        .map((t) => {
          const session = packageSessionFor(holdings, t.id);
          return {
            id: t.id,
            name: t.displayName,
            image: services.images.treatment(t),
            description: t.description,
            length: visitLengthLabel(visitMinutes(t, [])),
            // A package session pays for the treatment itself; its add-ons are still paid.
            ...(session ? { price: PACKAGE_PRICE, discounted: null } : priced(t, "service")),
            packageNote: session ? packageSessionsLeft(session) : null,
            // Said only to a member: a visitor without a membership has nothing it could cover.
            membershipNote: member && !coveredByMembership(t.name) ? "Not covered by membership" : null,
          };
        }),
    })),
    selected: selectedView,
    // Opened by its "Select" (not back from "Update total", whose address says `totalled`): the page
    // as sent starts at the first option, as the browser does when the options open in place.
    openedBySelect: url.searchParams.has("choose") && !url.searchParams.has(TOTALLED),
    // The booking bar sums up the treatment shown chosen here, at the total shown (decision 056).
    bookingBar: selectedView ? { clinic: center.name, ...choiceOf(selectedView, chosenAddOns).shown } : null,
    chosen: { addOnIds: chosenAddOns, therapistId: draft.therapistId },
    nurses: therapists.map((t) => ({
      id: t.id,
      name: t.displayName,
      title: t.jobTitle,
      image: services.images.nurse(t),
    })),
    // "Select" names its own treatment; the rest of a link goes with it.
    carry: linkQuery(link, ["id", "service"]),
  };
}

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  const { services } = context;
  const url = new URL(request.url);
  const { center, catalog } = await requireClinic(services, url.searchParams.get("id"));
  const submission = parseSubmission(await formDataOf(request), ServiceChoiceSchema);
  if (submission.status !== "success") return refuseForm(submission);
  const session = requestSession(context);
  // A link this page was opened with is kept now, with the choice: its guest, nurse, day and code.
  const linked = await draftFromLink(services, {
    center,
    catalog,
    kept: getDraft(session),
    link: bookingLinkOf(url),
    user: await currentUser(context),
    clientIp: context.clientIp,
    keep: true,
  });
  const { holdings, treatments } = linked;
  const service = findService(treatments, String(submission.value.service));
  if (!service) return refuseForm(submission, { formErrors: [SERVICE_REQUIRED] });
  const { area, addOn, therapist = "any" } = submission.value;
  const allowed = new Set(service.addOnIds);
  const picked = [...addOn, ...area];
  if (picked.some((id) => !allowed.has(id.toLowerCase())))
    return refuseForm(submission, { formErrors: [CHOOSE_SHOWN] });
  const addOnIds = [...new Set(picked.map((id) => id.toLowerCase()))];
  if (addOnIds.length > MAX_ADD_ONS) return refuseForm(submission, { formErrors: [TOO_MANY_ADD_ONS] });
  if (needsTreatmentArea(service.name) && area.length === 0)
    return refuseForm(submission, { fieldErrors: { area: [AREA_REQUIRED] } });
  let therapistId: string | null = null;
  if (therapist !== "any") {
    // Read again, not from the link's look: a back end that cannot say is an outage, not a wrong nurse.
    const nurse = ((await services.catalog.listTherapists(center.id)) ?? []).find(
      (t) => t.id === therapist.toLowerCase(),
    );
    if (!nurse) return refuseForm(submission, { fieldErrors: { therapist: [NURSE_FROM_LIST] } });
    therapistId = nurse.id;
  }

  const base = linked.draft;
  // A treatment a package of theirs pays for is booked with a session of it (they can pay instead at the payment step, if it is offered to them).
  const next: Draft = {
    ...base,
    serviceId: service.id,
    addOnIds,
    therapistId,
    pkg: packageSessionFor(holdings, service.id) ? 1 : undefined,
  };
  if (!sameChoice(next, base)) {
    await dropDraftHold(services, base);
    next.hold = undefined;
    next.payKey = undefined;
  }
  if (linked.choiceChanged) next.payKey = undefined;
  setDraft(session, next);
  if (submission.value.intent === "total") {
    // Without JavaScript the total is worked out here: the step again, the choice kept, at its total.
    return redirect(
      `${href("/appointment/service")}?id=${encodeURIComponent(center.id)}&choose=${service.id}&${TOTALLED}=1#total`,
    );
  }
  context.services.analytics.record({
    name: "service_chosen",
    properties: { centerId: center.id, serviceIds: [service.id, ...addOnIds], serviceCount: 1 + addOnIds.length },
  });
  return redirect(`${href("/appointment/time")}${next.date ? `?date=${next.date}` : ""}`);
});

export default function ServiceStep({ loaderData, actionData }: Route.ComponentProps) {
  const { clinic, categories, selected, openedBySelect, chosen, nurses, carry } = loaderData;
  // A refusal with no treatment to show its options under (one not offered here): said at the top.
  const refusal = selected ? [] : Object.values(actionData?.result?.error ?? {}).flatMap((errors) => errors ?? []);
  // The first treatments' pictures are in view as the page opens: asked for at once, the rest when near.
  const firstTreatments = new Set(categories.flatMap(({ items }) => items.map((item) => item.id)).slice(0, 2));
  // With no treatment chosen yet, the step starts at the first treatment's "Select" (decision 062).
  const startHere = useStartHere(!selected && refusal.length === 0);
  const firstId = categories.find(({ items }) => items.length > 0)?.items[0]?.id;
  return (
    <>
      <h1>Choose your treatment</h1>
      <p>
        At <Link to={href("/locations/:slug", { slug: clinic.slug })}>{clinic.name}</Link>.
      </p>
      {refusal.length > 0 ? (
        <div className="error-summary" role="alert" tabIndex={-1} autoFocus>
          {refusal.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
      <section aria-labelledby="treatments-heading">
        <h2 id="treatments-heading" className="visually-hidden">
          Treatments
        </h2>
        {categories.map(({ category, note, items }) => (
          <section key={category} aria-label={category}>
            <h3>{category}</h3>
            {note ? <p className="muted">{note}</p> : null}
            {items.length > 0 ? (
              <ul className="choice-list">
                {items.map((item) => {
                  const isSelected = selected?.id === item.id;
                  return (
                    <li key={item.id} className={isSelected ? "chosen" : undefined}>
                      <div className="choice-main">
                        <CatalogImage
                          image={item.image}
                          className="treatment-image"
                          priority={firstTreatments.has(item.id)}
                        />
                        <div>
                          <strong>{item.name}</strong> <span className="muted">{item.length}</span>
                          <p>{item.description}</p>
                          {item.packageNote ? <p className="package-note">{item.packageNote}</p> : null}
                          {item.membershipNote ? <p className="muted">{item.membershipNote}</p> : null}
                        </div>
                      </div>
                      <div className="choice-side">
                        <Price price={item.price} discounted={item.discounted} />
                        <ButtonLink
                          className={isSelected ? "button" : "button button-secondary"}
                          // No fragment: a page with one skips \`autofocus\`, which starts it at the first option.
                          to={`?id=${clinic.id}&choose=${item.id}${carry}`}
                          aria-current={isSelected ? "true" : undefined}
                          aria-expanded={isSelected}
                          aria-controls={isSelected ? "options" : undefined}
                          preventScrollReset
                          {...(item.id === firstId ? startHere : {})}
                        >
                          {isSelected ? "Selected" : "Select"}
                          <span className="visually-hidden"> {item.name}</span>
                        </ButtonLink>
                      </div>
                      {/* The options open in place, under the treatment chosen (decision 056). */}
                      {isSelected && selected ? (
                        <TreatmentOptions
                          key={selected.id}
                          clinic={clinic.name}
                          selected={selected}
                          openedBySelect={openedBySelect}
                          chosen={chosen}
                          nurses={nurses}
                          lastResult={actionData?.result}
                        />
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </section>
        ))}
      </section>
    </>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];
type Selected = NonNullable<LoaderData["selected"]>;

/** The address's mark of a page drawn again by "Update total" without JavaScript, which returns to the total. */
const TOTALLED = "totalled";

/** The chosen treatment's options and the total of what is chosen, as the payment step will charge it. */
function TreatmentOptions({
  clinic,
  selected,
  openedBySelect,
  chosen,
  nurses,
  lastResult,
}: {
  clinic: string;
  selected: Selected;
  openedBySelect: boolean;
  chosen: LoaderData["chosen"];
  nurses: LoaderData["nurses"];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const hydrated = useHydrated();
  const choice = useSchemaForm(FORMS.ServiceChoiceSchema, {
    // Each treatment its own form: its options start from what was chosen for it.
    id: `options-${selected.id}`,
    lastResult,
    defaultValue: { area: chosen.addOnIds, addOn: chosen.addOnIds, therapist: chosen.therapistId ?? "any" },
  });
  const { fields } = choice;
  // Opened, the options start at their first one, the next decision (decision 062): focused as they
  // mount after a Select in the browser, the target of the focus on arriving at the step, and
  // \`autofocus\` in the page as sent after a Select (whose address has no fragment: the browser skips
  // \`autofocus\` on a page that has one). Not back from "Update total", which comes back to #total,
  // which a focus would leave. After a refused submit, the first message has focus instead.
  const opening = Object.keys(choice.form.allErrors).length === 0;
  const startAt = selected.areas.length
    ? "area"
    : selected.enhancements.length
      ? "enhancement"
      : selected.fixers.length
        ? "fixer"
        : "nurse";
  const startHere = (at: typeof startAt) =>
    opening && startAt === at
      ? ({ "data-focus-on-arrival": "", ...(hydrated || openedBySelect ? { autoFocus: true } : {}) } as const)
      : {};
  // What is ticked, followed in the browser so the total changes with it; the page's data otherwise.
  const [ticked, setTicked] = useState<string[]>(chosen.addOnIds);
  const { total, shown } = choiceOf(selected, ticked);
  const { price, listPrice } = shown;
  useShowChoice({ clinic, ...shown });
  return (
    <div id="options" className="options" tabIndex={-1}>
      <SchemaForm
        schemaForm={choice}
        aria-label={`${selected.name}: your options`}
        onChange={(event) => {
          const data = new FormData(event.currentTarget);
          setTicked([...data.getAll("area"), ...data.getAll("addOn")].map(String));
        }}
      >
        <h4>{selected.name}: your options</h4>
        <input type="hidden" name="service" value={selected.id} />
        {selected.areas.length > 0 ? (
          <AreasFieldset
            meta={fields.area}
            areas={selected.areas}
            attempt={choice.attempt}
            startHere={startHere("area")}
          />
        ) : null}
        {selected.enhancements.length > 0 ? (
          <fieldset>
            <legend>
              Enhancements <span className="muted">({selected.enhancementRange}, optional)</span>
            </legend>
            {getCollectionProps(fields.addOn, {
              type: "checkbox",
              options: selected.enhancements.map((addOn) => addOn.id),
            }).map(({ key, ...props }, index) => {
              const addOn = selected.enhancements[index];
              return (
                <label key={key} className="check">
                  <input {...props} {...(index === 0 ? startHere("enhancement") : {})} />
                  {addOn.name} <Price price={addOn.price} discounted={addOn.discounted} />
                  <span className="muted"> {addOn.added}</span>
                </label>
              );
            })}
          </fieldset>
        ) : null}
        {selected.fixers.length > 0 ? (
          <fieldset>
            <legend>
              Fixer <span className="muted">(optional)</span>
            </legend>
            {getCollectionProps(fields.addOn, {
              type: "checkbox",
              options: selected.fixers.map((fixer) => fixer.id),
            }).map(({ key, ...props }, index) => {
              const fixer = selected.fixers[index];
              return (
                <label key={key} className="check">
                  <input {...props} {...(index === 0 ? startHere("fixer") : {})} />
                  {fixer.name} <Price price={fixer.price} discounted={fixer.discounted} />
                  <span className="muted"> {fixer.description}</span>
                </label>
              );
            })}
          </fieldset>
        ) : null}
        <NursePicker
          meta={fields.therapist}
          nurses={nurses}
          startHere={startHere("nurse")}
          chosen={chosen.therapistId ?? "any"}
        />
        {/* Said again as it changes; without JavaScript, after "Update total". */}
        <p id="total" className="options-total" tabIndex={-1} aria-live="polite" aria-atomic="true">
          <span>Total</span> <Price price={listPrice ?? price} discounted={listPrice ? price : null} />
          {total.memberDiscount > 0 ? <span className="muted"> with your member price</span> : null}
          {total.packageCovers > 0 ? <span className="muted"> with a package session</span> : null}
        </p>
        <p className="options-actions">
          <button type="submit" name="intent" value="continue" disabled={busy}>
            {busy ? "Saving…" : "Continue to date and time"}
          </button>
          {hydrated ? null : (
            <button type="submit" name="intent" value="total" className="button-secondary" disabled={busy}>
              Update total
            </button>
          )}
        </p>
      </SchemaForm>
    </div>
  );
}

/**
 * Who does the treatment: any nurse free at the time chosen, or one by name, each a card with their
 * picture, name and title. Native radios in one group: one Tab stop, the arrow keys move and choose,
 * and the legend names the group for screen readers; with JavaScript or without.
 */
function NursePicker({
  meta,
  nurses,
  startHere,
  chosen,
}: {
  meta: ReturnType<typeof useSchemaForm>["fields"][string];
  nurses: LoaderData["nurses"];
  /** Where the options start, when at the nurse: the one chosen (a group's Tab stop). */
  startHere: { autoFocus?: true; "data-focus-on-arrival"?: "" };
  chosen: string;
}) {
  const focusFirst = useFocusFirst(meta.name);
  return (
    <fieldset
      className="nurse-picker"
      aria-describedby={meta.errors ? meta.errorId : undefined}
      aria-invalid={meta.errors ? true : undefined}
    >
      <legend>Nurse</legend>
      <FieldMessage meta={meta} />
      <div className="nurse-options">
        {getCollectionProps(meta, {
          type: "radio",
          options: ["any", ...nurses.map((nurse) => nurse.id)],
          ariaAttributes: false,
        }).map(({ key, ...props }, index) => {
          const nurse = index === 0 ? null : nurses[index - 1];
          return (
            <label key={key} className="check nurse-option">
              <input
                {...props}
                autoFocus={index === 0 ? focusFirst : undefined}
                {...(props.value === chosen ? startHere : {})}
              />
              {nurse ? (
                <CatalogImage image={nurse.image} className="nurse-image" />
              ) : (
                <span className="nurse-image nurse-any" aria-hidden="true" />
              )}
              <span className="nurse-name">{nurse ? nurse.name : "Any available nurse"}</span>
              {nurse && !nurse.title ? null : (
                <span className="muted nurse-title">{nurse ? nurse.title : "The most times to choose from"}</span>
              )}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/**
 * The treatment areas, one at least. Inside the form, so that after a refused submit the first area
 * is the field focused (`autofocus` without JavaScript), its message read with its group.
 */
function AreasFieldset({
  meta,
  areas,
  attempt,
  startHere,
}: {
  meta: ReturnType<typeof useSchemaForm>["fields"][string];
  areas: Selected["areas"];
  /** The form's count of refused submits: with JavaScript the first area is focused after each. */
  attempt: number;
  /** Where the options start, when at the areas. */
  startHere: { autoFocus?: true; "data-focus-on-arrival"?: "" };
}) {
  const focusAreas = useFocusFirst(meta.name);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (attempt > 0 && focusAreas) first.current?.focus();
  }, [attempt, focusAreas]);
  return (
    <fieldset aria-describedby={meta.errors ? meta.errorId : undefined} aria-invalid={meta.errors ? true : undefined}>
      <legend>Treatment areas (choose at least one)</legend>
      <FieldMessage meta={meta} />
      {getCollectionProps(meta, {
        type: "checkbox",
        options: areas.map((area) => area.id),
        ariaAttributes: false,
      }).map(({ key, ...props }, index) => {
        const area = areas[index];
        return (
          <label key={key} className="check">
            <input
              {...props}
              ref={index === 0 ? first : undefined}
              autoFocus={index === 0 ? focusAreas : undefined}
              {...(index === 0 ? startHere : {})}
            />
            {area.name} <Price price={area.price} discounted={area.discounted} />
          </label>
        );
      })}
    </fieldset>
  );
}

type ChoiceView = {
  name: string;
  priceLabel: string;
  areas: { id: string; name: string }[];
  enhancements: { id: string; name: string }[];
  fixers: { id: string; name: string }[];
  pricing: TreatmentPricing;
};

/**
 * A choice of the treatment's options as the step and the booking bar show it: its total by the
 * payment step's own rules (`bookingTotal`), and what the list price was when something comes off.
 */
function choiceOf(selected: ChoiceView, ticked: readonly string[]) {
  const total = bookingTotal(chosenLines(selected.pricing.lines, ticked), selected.pricing.inputs);
  const names = new Map([...selected.areas, ...selected.enhancements, ...selected.fixers].map((o) => [o.id, o.name]));
  return {
    total,
    shown: {
      treatment: selected.name,
      addOns: ticked.map((id) => names.get(id)).filter((name): name is string => Boolean(name)),
      // Nothing priced yet (a laser treatment before its areas): what the treatment is shown at.
      price: total.subtotal > 0 ? formatMoney(total.total) : selected.priceLabel,
      listPrice: total.subtotal > 0 && total.total < total.subtotal ? formatMoney(total.subtotal) : null,
    },
  };
}

function Price({ price, discounted }: { price: string; discounted: string | null }) {
  if (!discounted) return <span className="price">{price}</span>;
  return (
    <span className="price">
      {/* A name on <s> is not read (its role takes none): the word is said as text instead. */}
      <s>
        <span className="visually-hidden">was </span>
        {price}
      </s>{" "}
      <strong>{discounted}</strong>
    </span>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ClinicNotFound
        title={INVALID_CLINIC}
        text="We couldn't find that clinic. Please choose one from our locations."
      />
    );
  }
  return <ErrorMessage error={error} />;
}
