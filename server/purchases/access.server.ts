import { data } from "react-router";
import type { CurrentUser, Services } from "../services";
import type { Purchase } from "../store/stores.server";

const NOT_FOUND = "We could not find that purchase.";

/** The signed-in user's own purchase; anyone else's (or none) is the same 404, so ids cannot be probed. */
export async function ownPurchase(services: Services, id: string, user: CurrentUser): Promise<Purchase> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw data(NOT_FOUND, { status: 404 });
  const purchase = await services.stores.purchases.get(id);
  if (!purchase || purchase.userId !== user.id) throw data(NOT_FOUND, { status: 404 });
  return purchase;
}
