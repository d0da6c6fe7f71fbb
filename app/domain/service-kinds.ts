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

/** Membership does not cover sculpting and laser hair removal. */
export function coveredByMembership(name: string): boolean {
  const kind = serviceKind(name);
  return kind !== "sculpting" && kind !== "lhr" && kind !== "partial-face";
}

/** Add-on enhancements take 15 extra minutes for new clients, none for returning ones. */
export function addOnMinutes(clientType: ClientType): number {
  return clientType === "new" ? 15 : 0;
}
