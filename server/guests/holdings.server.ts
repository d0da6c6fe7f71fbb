import { hasCompletedNewClientVisit } from "~/domain/accounts";
import { idKey, type Service } from "~/domain/catalog";
import { isReturningVersion, offeredAlone, offeredTo, serviceKind, type ClientType } from "~/domain/service-kinds";
import { appCache } from "../cache/cache.server";
import type { Services } from "../services";
import { logger } from "../observability/logger.server";
import { isSpaError } from "../spa/errors.server";
import type { GuestPackage } from "../spa/sales.server";
import { packageCovering, redeemablePackages, type BookingPackage } from "./packages.server";

/**
 * What a guest holds with the clinics (docs/decisions/037): whether they are a returning client and
 * which package sessions they can book with. One read feeds the treatment step (what is offered and
 * at what price), the payment step and "Book again"; the member prices and the payment step's
 * package are read from the same kept lists (`member-prices.server.ts`, `packages.server.ts`).
 */

/**
 * Who is booking, as far as this visitor has proved it: their account (`own`), a texted link, a
 * manage link, or an existing client's record they proved with a one-time code. A guest made from
 * details typed a moment ago is new by definition.
 */
export type GuestRef = {
  guestId: string;
  /** The email the clinics know them by, when known: `guestDetails` keeps the returning flag under it. */
  email?: string | null;
  /** The signed-in account's own guest: only they book with their packages (a link may be forwarded). */
  own?: boolean;
};

export type GuestHoldings = {
  clientType: ClientType;
  /** The guest's packages at the clinic with sessions left (their own account only). */
  packages: GuestPackage[];
};

/**
 * A new client's answer is kept briefly: their first visit may close any day, and the back end
 * meters every call. A returning client's is written to `guestDetails.is_return_user` and never
 * asked again.
 */
const newClientAnswers = appCache.define<ClientType>({
  name: "client-type",
  key: idKey,
  ttlMs: 2 * 60_000,
  staleMs: 0,
  maxEntries: 5_000,
});

/**
 * Whether the guest has completed a new-client visit (spec section 4), from the returning flag the
 * guest's record here keeps, else their visit history, which writes the flag once it says so.
 * Anyone not known is new; a guest whose history cannot be read is priced as new and told nothing
 * (the back end's invoice has the last word on a prepaid clinic's price).
 */
export async function clientTypeOf(services: Services, guest: GuestRef | null): Promise<ClientType> {
  if (!guest) return "new";
  const details = guest.email ? await services.stores.guestDetails.get(guest.email) : null;
  const sameGuest = details !== null && idKey(details.guest_id) === idKey(guest.guestId);
  if (sameGuest && details.is_return_user) return "returning";
  let type: ClientType;
  try {
    type = await newClientAnswers.get(guest.guestId, async () => {
      const history = await services.spa.listGuestAppointments(guest.guestId, { size: 100 });
      return hasCompletedNewClientVisit(history.flatMap((a) => a.services)) ? "returning" : "new";
    });
  } catch (error) {
    if (!isSpaError(error)) throw error;
    return "new";
  }
  if (type === "returning") {
    newClientAnswers.delete(guest.guestId);
    if (sameGuest && guest.email) {
      await services.stores.guestDetails.update(guest.email, { is_return_user: true }).catch((error: Error) => {
        logger.warn("returning flag not written", { message: error.message });
      });
    }
  }
  return type;
}

/** What the guest holds at this clinic: their client type, and their packages when it is their own account. */
export async function guestHoldings(
  services: Services,
  guest: GuestRef | null,
  centerId: string,
): Promise<GuestHoldings> {
  const [clientType, packages] = await Promise.all([
    clientTypeOf(services, guest),
    guest?.own ? redeemablePackages(services, guest.guestId, centerId) : Promise.resolve([]),
  ]);
  return { clientType, packages };
}

/** The package session that pays for this treatment, when the guest holds one. */
export function packageSessionFor(holdings: GuestHoldings, serviceId: string): BookingPackage | null {
  return packageCovering(holdings.packages, serviceId);
}

/**
 * The treatments this guest can book (not add-ons): the version for their client type (new clients
 * the new-client ones, returning clients the returning ones), and any treatment a package of theirs
 * has a session left for, whichever version it is (a new client who bought a facial package books
 * its returning-client facial with it). The Fixer on its own is a returning client's (`offeredAlone`).
 */
export function treatmentsFor(catalog: readonly Service[], holdings: GuestHoldings): Service[] {
  return catalog.filter(
    (s) => !s.isAddOn && (offeredAlone(s.name, holdings.clientType) || packageSessionFor(holdings, s.id) !== null),
  );
}

/**
 * The treatment a guest who turned out to be a returning client books instead of a new-client
 * version they chose before they were known: the returning version of the same kind at the clinic,
 * or null when the clinic has none (or the choice was not a new-client version).
 */
export function returningVersionOf(catalog: readonly Service[], chosen: Service): Service | null {
  if (offeredTo(chosen.name, "returning")) return null;
  const kind = serviceKind(chosen.name);
  return catalog.find((s) => !s.isAddOn && isReturningVersion(s.name) && serviceKind(s.name) === kind) ?? null;
}
