import { sameId, type Center } from "~/domain/catalog";
import { packageSaving } from "~/domain/purchases";
import { formatMoney } from "~/lib/money";
import { appCache } from "../cache/cache.server";
import type { Services } from "../services";
import { clinicPlanList } from "../memberships/memberships.server";
import type { GiftCardOccasion, GiftCardTemplate, PackagePlan } from "../spa/sales.server";
import type { Offer } from "./purchase.server";

/**
 * What a clinic sells online besides treatments: its packages, gift-card templates and occasions.
 * They change as rarely as its menu, so they are kept like the catalog (Zenoti meters every call);
 * a purchase is always priced again by the back end's sale invoice.
 */
const keptAsCatalog = { ttlMs: 5 * 60_000, staleMs: 60 * 60_000, maxEntries: 500 };
const byClinic = (centerId: string) => centerId.toLowerCase();
const packagePlans = appCache.define<PackagePlan[] | null>({
  name: "clinic-packages",
  key: byClinic,
  ...keptAsCatalog,
});
const templates = appCache.define<GiftCardTemplate[] | null>({
  name: "gift-card-templates",
  key: byClinic,
  ...keptAsCatalog,
});
const occasions = appCache.define<GiftCardOccasion[], "chain">({
  name: "gift-card-occasions",
  key: (scope) => scope,
  ...keptAsCatalog,
});

export function clinicPackages(services: Services, centerId: string): Promise<PackagePlan[] | null> {
  return packagePlans.get(centerId, () => services.spa.listPackages(centerId));
}

export function giftCardTemplates(services: Services, centerId: string): Promise<GiftCardTemplate[] | null> {
  return templates.get(centerId, () => services.spa.listGiftCardTemplates(centerId));
}

export function giftCardOccasions(services: Services): Promise<GiftCardOccasion[]> {
  return occasions.get("chain", () => services.spa.listGiftCardOccasions());
}

/** A clinic by its slug, or null; the list of clinics for a picker. */
export async function clinicChoice(services: Services, slug: string | null) {
  const centers = await services.catalog.listCenters();
  const clinics = [...centers]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => ({ slug: c.slug, name: c.name }));
  const center = slug && /^[a-z0-9-]{1,80}$/.test(slug) ? (centers.find((c) => c.slug === slug) ?? null) : null;
  return { clinics, center };
}

/** The clinic a signed-in guest calls home, for pages opened without one. */
export async function homeClinic(services: Services, centerId: string | undefined): Promise<Center | null> {
  if (!centerId) return null;
  return services.catalog.getCenter(centerId);
}

export type PackageView = {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  price: string;
  sessions: { name: string; quantity: number }[];
  /** "Save $75 on single visits", when the clinic's single prices are known. */
  saving: string | null;
  validFor: string | null;
};

export async function packageViews(services: Services, center: Center): Promise<PackageView[] | null> {
  const [packages, menu] = await Promise.all([
    clinicPackages(services, center.id),
    services.catalog.listServices(center.id),
  ]);
  if (!packages) return null;
  const unitPrice = (serviceId: string) => menu?.find((s) => sameId(s.id, serviceId))?.price;
  return packages.map((p) => {
    const units = p.services.map((s) => ({ unitPrice: unitPrice(s.serviceId), quantity: s.quantity }));
    const known = units.every((u) => u.unitPrice !== undefined && u.unitPrice > 0);
    const saving = known ? packageSaving(p.priceCents, units as { unitPrice: number; quantity: number }[]) : 0;
    return {
      id: p.id,
      name: p.name,
      description: p.description,
      priceCents: p.priceCents,
      price: formatMoney(p.priceCents),
      // Zenoti's package benefits carry no name (its sample has none): the menu's names the service.
      sessions: p.services.map((s) => ({
        name: s.name || (menu?.find((m) => sameId(m.id, s.serviceId))?.displayName ?? "A treatment"),
        quantity: s.quantity,
      })),
      saving: saving > 0 ? `Save ${formatMoney(saving)} on single visits` : null,
      validFor: p.validityDays ? `Use within ${p.validityDays} days of buying` : null,
    };
  });
}

/** The plan or package as the clinic sells it now, or null when it does not sell it online. */
export async function findItemOffer(
  services: Services,
  kind: "membership" | "package",
  center: Center,
  itemId: string,
): Promise<Offer | null> {
  const items =
    kind === "membership" ? await clinicPlanList(services, center.id) : await clinicPackages(services, center.id);
  const item = items?.find((i) => sameId(i.id, itemId));
  if (!item) return null;
  return {
    kind,
    centerId: center.id,
    itemId: item.id,
    itemName: item.name,
    priceCents: item.priceCents,
    giftCard: null,
  };
}
