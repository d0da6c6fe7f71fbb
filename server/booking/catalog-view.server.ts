import { data, href, redirect } from "react-router";
import { sameId, type Center, type Service } from "~/domain/catalog";
import { INVALID_CLINIC } from "~/domain/booking";
import { offeredAlone } from "~/domain/service-kinds";
import type { Services } from "../services";
import { withAddOnPrices } from "../pricing/offer-prices.server";
import type { RequestContext } from "../request-context.server";
import { orUnavailable, refuseClinicWithoutTimeZone } from "../unavailable.server";
import { requireDraft } from "./draft.server";

/** The clinic and its bookable services, or the "Invalid Clinic Location" page (404). */
export async function requireClinic(
  services: Services,
  centerId: string | null | undefined,
): Promise<{ center: Center; catalog: Service[] }> {
  if (!centerId || centerId.length > 64) throw data(INVALID_CLINIC, { status: 404 });
  const center = await orUnavailable(() => services.catalog.getCenter(centerId));
  if (!center) await refuseClinicWithoutTimeZone(services.catalog, centerId);
  if (!center) throw data(INVALID_CLINIC, { status: 404 });
  const listed = await orUnavailable(() => services.catalog.listServices(center.id));
  if (!listed) throw data(INVALID_CLINIC, { status: 404 });
  // Laser hair removal areas at the prices of their own collection (decision 032).
  const catalog = await orUnavailable(() => withAddOnPrices(services, listed));
  return { center, catalog };
}

/** Treatments a visitor of this client type can book on their own (not add-ons; the Fixer alone only when returning). */
export function bookableTreatments(catalog: Service[], clientType: "new" | "returning"): Service[] {
  return catalog.filter((s) => !s.isAddOn && offeredAlone(s.name, clientType));
}

export function findService(catalog: Service[], id: string | null | undefined): Service | undefined {
  if (!id) return undefined;
  return catalog.find((s) => sameId(s.id, id));
}

/** A step after the treatment choice: the draft, its clinic and catalog, and the chosen treatment. */
export async function requireChosenService(context: RequestContext) {
  const { session, draft } = await requireDraft(context, "service");
  const { center, catalog } = await requireClinic(context.services, draft.centerId);
  const service = findService(catalog, draft.serviceId);
  if (!service) throw redirect(`${href("/appointment/service")}?id=${encodeURIComponent(center.id)}`);
  return { session, draft, center, catalog, service };
}
