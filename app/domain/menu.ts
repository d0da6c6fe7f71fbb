import { isEnhancement, type Service } from "./catalog";
import { offeringName } from "./service-kinds";
import type { Cents } from "./money";

export type MenuItem = { id: string; name: string; description: string; durationMinutes: number; price: string };
export type MenuSection = { category: string; items: MenuItem[] };

/**
 * What a treatment costs, as the clinic page and the booking step both say it: its price; for one
 * priced by area (laser hair removal), the range of its areas "per area"; else "Free".
 */
export function treatmentPriceLabel(
  service: Service,
  byId: Map<string, Service>,
  formatRange: (min: Cents, max: Cents) => string,
): string {
  if (service.price > 0) return formatRange(service.price, service.price);
  const areaPrices = service.addOnIds
    .map((id) => byId.get(id)?.price)
    .filter((p): p is Cents => typeof p === "number" && p > 0);
  if (areaPrices.length > 0) return `${formatRange(Math.min(...areaPrices), Math.max(...areaPrices))} per area`;
  return "Free";
}

/** What an add-on or a treatment area with no price of its own says: it comes with the treatment. */
export const INCLUDED_PRICE = "Included";

/**
 * A clinic's treatment menu: bookable treatments grouped by category, each priced. A treatment
 * priced by area (laser hair removal) shows the range of its areas; a free one says so.
 */
export function buildMenu(
  services: Service[],
  formatRange: (min: Cents, max: Cents) => string,
): { treatments: MenuSection[]; addOns: MenuItem[] } {
  const byId = new Map(services.map((s) => [s.id, s]));
  const priceOf = (service: Service) => treatmentPriceLabel(service, byId, formatRange);
  const toItem = (s: Service): MenuItem => ({
    id: s.id,
    name: s.displayName,
    description: s.description,
    durationMinutes: s.durationMinutes,
    price: priceOf(s),
  });

  const sections = new Map<string, MenuItem[]>();
  for (const service of services.filter((s) => !s.isAddOn)) {
    const items = sections.get(service.category) ?? [];
    items.push(toItem(service));
    sections.set(service.category, items);
  }
  // Each facial version offers enhancements of its own, of the same names (decision 045): each is listed once.
  const seen = new Set<string>();
  const enhancements = services
    .filter((s) => isEnhancement(s) && !seen.has(offeringName(s.name)) && seen.add(offeringName(s.name)))
    .map(toItem);
  return {
    treatments: [...sections.entries()].map(([category, items]) => ({ category, items })),
    addOns: enhancements,
  };
}

/** What a treatment a package of the guest's pays for costs them: a session of it. */
export const PACKAGE_PRICE = "In your package";

/** "2 sessions left in Signature Facial Series: 3 sessions". */
export function packageSessionsLeft(session: { name: string; left: number }): string {
  return `${session.left} ${session.left === 1 ? "session" : "sessions"} left in ${session.name}`;
}
