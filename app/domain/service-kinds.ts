/**
 * Services are told apart by the keywords in their names (spec section 9): "Signature",
 * "New Client", "return", "peel", "laser hair removal", "partial face", "Sculpting", "Fixer",
 * "Consultation".
 */
export type ServiceKind = "facial" | "peel" | "lhr" | "partial-face" | "sculpting" | "fixer" | "consultation" | "other";

export function serviceKind(name: string): ServiceKind {
  const n = name.toLowerCase();
  if (n.includes("partial face")) return "partial-face";
  if (n.includes("laser hair removal")) return "lhr";
  if (n.includes("peel")) return "peel";
  if (n.includes("signature")) return "facial";
  if (n.includes("sculpting")) return "sculpting";
  if (n.includes("fixer")) return "fixer";
  if (n.includes("consultation")) return "consultation";
  return "other";
}

/** Peels, laser hair removal and partial-face laser hair removal need a treatment area. */
export function needsTreatmentArea(name: string): boolean {
  const kind = serviceKind(name);
  return kind === "peel" || kind === "lhr" || kind === "partial-face";
}

export function isNewClientVersion(name: string): boolean {
  return name.toLowerCase().includes("new client");
}

export function isReturningVersion(name: string): boolean {
  const n = name.toLowerCase();
  return n.includes("return") || (serviceKind(name) === "facial" && !isNewClientVersion(name));
}

/** A guest who has completed a new-client visit is a returning client (spec section 4). */
export type ClientType = "new" | "returning";

/** New clients see new-client versions; returning users see the returning ones. */
export function offeredTo(name: string, clientType: ClientType): boolean {
  return clientType === "new" ? !isReturningVersion(name) : !isNewClientVersion(name);
}

/**
 * Whether a treatment is offered on its own to this client type: the version for them, and the
 * Fixer (a touch-up within 30 days of a laser facial) only to a returning client, who has had a
 * facial; a new client adds it to their facial instead.
 */
export function offeredAlone(name: string, clientType: ClientType): boolean {
  if (serviceKind(name) === "fixer" && clientType === "new") return false;
  return offeredTo(name, clientType);
}

/** Membership does not cover sculpting and laser hair removal. */
export function coveredByMembership(name: string): boolean {
  const kind = serviceKind(name);
  return kind !== "sculpting" && kind !== "lhr" && kind !== "partial-face";
}

/**
 * A service's name without the words that say which clients it is for, so that the new-client and
 * the returning version of one thing (a facial, an enhancement) compare equal.
 */
export function offeringName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\b(new client|return(ing)? client)\b/g, " ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/**
 * The add-ons of `treatment` that stand for add-ons chosen with another version of it (a new-client
 * facial's enhancements, carried to the returning facial): the same add-on, or the one of the same
 * name offered with `treatment`. Each facial version has enhancements of its own, of its own
 * length (decision 045). The ids of those found, in order, once each.
 */
export function addOnsCarriedTo(
  treatment: { addOnIds: readonly string[] },
  catalog: readonly { id: string; name: string }[],
  chosen: readonly { id: string | null; name: string }[],
): string[] {
  const offered = catalog.filter((s) => treatment.addOnIds.includes(s.id));
  const carried = chosen.map(
    (c) => offered.find((s) => s.id === c.id) ?? offered.find((s) => offeringName(s.name) === offeringName(c.name)),
  );
  return [...new Set(carried.filter((s): s is { id: string; name: string } => Boolean(s)).map((s) => s.id))];
}
