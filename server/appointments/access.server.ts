import { data, href } from "react-router";
import type { CurrentUser } from "../services";
import { requireUser } from "../accounts/current-user.server";
import { currentUser, type RequestContext } from "../request-context.server";
import { orUnavailable } from "../unavailable.server";
import { findVisit, loadGuestVisits, type Visit } from "./visits.server";

/** Where one visit's pages are: under the account, or under a guest's manage link. */
export type VisitPaths = {
  /** The page to come back to: the account's list, or the link's own page. */
  home: string;
  reschedule: string;
  cancel: string;
  rebook: string;
  calendar: string;
};

/**
 * Who may see and change a visit, and the visit: a signed-in guest their own visits by id; anyone
 * holding a genuine manage link the one visit it names. Both read the guest's visits from the
 * back end, so an id that is not among them is simply not found.
 */
export type VisitAccess = {
  via: "account" | "link";
  guestId: string;
  visit: Visit;
  paths: VisitPaths;
  /** The manage link's token, when opened through one. */
  token: string | null;
  user: CurrentUser | null;
};

export const VISIT_NOT_FOUND = "We can't find that appointment.";
export const LINK_NOT_VALID = "This link has expired or is not valid.";

export function accountVisitPaths(visitId: string): VisitPaths {
  return {
    home: `${href("/account/appointments")}?tab=upcoming`,
    reschedule: href("/account/appointments/:id/reschedule", { id: visitId }),
    cancel: href("/account/appointments/:id/cancel", { id: visitId }),
    rebook: href("/account/appointments/:id/rebook", { id: visitId }),
    calendar: href("/account/appointments/:id/calendar.ics", { id: visitId }),
  };
}

export function manageLinkPaths(token: string): VisitPaths {
  return {
    home: href("/appointment/manage/:token", { token }),
    reschedule: href("/appointment/manage/:token/reschedule", { token }),
    cancel: href("/appointment/manage/:token/cancel", { token }),
    rebook: href("/appointment/manage/:token/rebook", { token }),
    calendar: href("/appointment/manage/:token/calendar.ics", { token }),
  };
}

/**
 * The visit a page is about, and who is asking, from its route's params: `id` under the account
 * (sign-in required; a visit of another guest is a 404), `token` under a manage link (a tampered or
 * expired one is a 404 that says so). A back-end outage is a 503 page.
 */
export async function requireVisitAccess(
  request: Request,
  context: RequestContext,
  params: { id?: string; token?: string },
): Promise<VisitAccess> {
  const { services } = context;
  if (params.token !== undefined) {
    const link = services.manageLinks.verify(params.token);
    if (!link) throw data(LINK_NOT_VALID, { status: 404 });
    const visits = await orUnavailable(() => loadGuestVisits(services, link.guestId));
    // The link names the visit by its group, invoice or first appointment: the confirmation knows
    // the invoice, the appointments list the group. Only this guest's visits are looked in.
    const visit = findVisit(visits, link.visitId);
    if (!visit) throw data(VISIT_NOT_FOUND, { status: 404 });
    return {
      via: "link",
      guestId: link.guestId,
      visit,
      paths: manageLinkPaths(params.token),
      token: params.token,
      user: await currentUser(context),
    };
  }
  const { user } = await requireUser(request, context);
  const visits = await orUnavailable(() => loadGuestVisits(services, user.guestId));
  const visit = params.id ? findVisit(visits, params.id) : null;
  if (!visit) throw data(VISIT_NOT_FOUND, { status: 404 });
  return { via: "account", guestId: user.guestId, visit, paths: accountVisitPaths(visit.id), token: null, user };
}
