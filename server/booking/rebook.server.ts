import { href } from "react-router";
import { addOnsCarriedTo, serviceKind } from "~/domain/service-kinds";
import type { Service } from "~/domain/catalog";
import type { Services } from "../services";
import type { VisitAccess } from "../appointments/access.server";
import { clientTypeOf } from "../guests/holdings.server";
import { bookableTreatments } from "./catalog-view.server";
import type { Draft } from "./draft.server";
import { dropDraftHold } from "./holds.server";

export type RebookOutcome =
  /** The journey opens at the time step with these choices. */
  | { kind: "time"; draft: Draft; to: string }
  /** The treatment is no longer offered there: choose one at the clinic. */
  | { kind: "choose-service"; draft: Draft; to: string; message: string }
  | { kind: "clinic-gone"; to: string; message: string };

/**
 * A new booking like a visit: its clinic, treatment, add-ons and nurse, as far as the clinic still
 * offers them, opening at the time step. The treatment is the version the guest may book now (a
 * returning client gets the returning version of a new-client treatment they had).
 */
export async function rebookVisit(
  services: Services,
  access: VisitAccess,
  previous: Draft | null,
): Promise<RebookOutcome> {
  const { visit } = access;
  const center = visit.center ? await services.catalog.getCenter(visit.center.id) : null;
  if (!center)
    return {
      kind: "clinic-gone",
      to: href("/locations"),
      message: "That clinic no longer takes bookings online. Please choose another.",
    };
  const catalog = (await services.catalog.listServices(center.id)) ?? [];
  const treatments = bookableTreatments(
    catalog,
    await clientTypeOf(services, { guestId: access.guestId, email: access.user?.email }),
  );
  const had = visit.services.find((s) => !s.isAddOn);
  const service = pickTreatment(treatments, had?.serviceId ?? null, had?.name ?? "");
  await dropDraftHold(services, previous);
  const base: Draft = { id: crypto.randomUUID(), centerId: center.id, addOnIds: [], therapistId: null };
  const serviceStep = `${href("/appointment/service")}?id=${encodeURIComponent(center.id)}`;
  if (!service)
    return {
      kind: "choose-service",
      draft: base,
      to: serviceStep,
      message: "That treatment isn't offered online there now. Please choose one.",
    };
  // The same add-ons, or the ones of the same names offered with the version booked now (decision 045).
  const addOnIds = addOnsCarriedTo(
    service,
    catalog,
    visit.services.filter((s) => s.isAddOn).map((s) => ({ id: s.serviceId, name: s.name })),
  );
  const nurses = (await services.catalog.listTherapists(center.id).catch(() => null)) ?? [];
  const therapistId =
    nurses.find((t) => t.id.toLowerCase() === visit.services.find((s) => s.therapistId)?.therapistId)?.id ?? null;
  const draft: Draft = { ...base, serviceId: service.id, addOnIds: [...new Set(addOnIds)], therapistId };
  return { kind: "time", draft, to: href("/appointment/time") };
}

function pickTreatment(treatments: Service[], serviceId: string | null, name: string): Service | undefined {
  const same = treatments.find((s) => s.id.toLowerCase() === serviceId);
  if (same) return same;
  // The same kind of treatment in the version offered to this guest (new-client or returning).
  const kind = serviceKind(name);
  return kind === "other" ? undefined : treatments.find((s) => serviceKind(s.name) === kind);
}
