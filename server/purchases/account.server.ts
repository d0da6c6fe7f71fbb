import { formatMoney } from "~/lib/money";
import type { CurrentUser, Services } from "../services";

export type PackageHoldingView = {
  id: string;
  name: string;
  validUntil: string | null;
  sessions: { name: string; total: number; used: number; left: number }[];
  left: number;
  paid: string | null;
};

/** The signed-in guest's packages, with what is used and left; ones with sessions left first. */
export async function accountPackages(services: Services, user: CurrentUser): Promise<PackageHoldingView[]> {
  const packages = await services.spa.guestPackages(user.guestId);
  const views = packages.map((p) => {
    // Zenoti's balance is what is left: its own sample shows it is not always total less used (decision 035).
    const sessions = p.services.map((s) => ({
      name: s.name,
      total: s.total,
      used: Math.max(0, s.redeemed),
      left: Math.max(0, s.left),
    }));
    return {
      id: p.userPackageId,
      name: p.name,
      validUntil: p.endDate,
      sessions,
      left: sessions.reduce((sum, s) => sum + s.left, 0),
      paid: p.purchasePriceCents === null ? null : formatMoney(p.purchasePriceCents),
    };
  });
  return views.sort((a, b) => Number(b.left > 0) - Number(a.left > 0));
}
