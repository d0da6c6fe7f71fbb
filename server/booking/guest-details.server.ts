import { href } from "react-router";
import { BASE_TAGS, type GuestDetailsInput } from "~/domain/guest";
import type { Services } from "../context.server";
import { logger } from "../observability/logger.server";
import { isSpaError } from "../spa/errors.server";
import type { Draft } from "./draft.server";

/** Zenoti's codes for a duplicate email, an invalid email and an invalid mobile number. */
const ERROR_PAGE_FOR_CODE: Record<string, string> = { "442": "duplicate-email", "443": "invalid-email", "482": "invalid-mobile" };

export type DetailsOutcome =
  | { kind: "saved"; draft: Draft }
  /** The spec's error page for what the back end refused, with where it sends the guest next. */
  | { kind: "refused"; errorPage: string }
  | { kind: "unavailable" };

/**
 * The details step: the visitor's own guest record (made when they held a slot) gets their name,
 * email and mobile number. An email that belongs to another guest goes to the duplicate-email page.
 */
export async function saveBookingDetails(services: Services, draft: Draft, details: GuestDetailsInput): Promise<DetailsOutcome> {
  const refused = (page: string): DetailsOutcome => ({
    kind: "refused",
    errorPage: `${href("/error")}?error=${page}&redirect=${page === "duplicate-email" ? "samesite" : "webstore"}`,
  });
  try {
    const existing = await services.spa.findGuestsByEmail(details.email);
    if (existing.some((g) => g.id !== draft.guestId)) return refused("duplicate-email");
    await services.spa.updateGuestProfile(draft.guestId!, { ...details, addTags: [...BASE_TAGS] });
  } catch (error) {
    if (!isSpaError(error)) throw error;
    const page = ERROR_PAGE_FOR_CODE[String(error.code)] ?? (/duplicate|already exists/i.test(error.message) ? "duplicate-email" : null);
    if (page) return refused(page);
    logger.warn("guest update failed", { kind: error.kind, status: error.status });
    return { kind: "unavailable" };
  }
  if (!(await services.stores.guestDetails.get(details.email))) {
    // A password is set later with a one-time code (the guest flow).
    await services.stores.guestDetails.create({ email: details.email, guest_id: draft.guestId!, is_password_set: false, is_return_user: false });
  }
  return { kind: "saved", draft: { ...draft, details } };
}
