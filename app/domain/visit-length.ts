import { isEnhancement, type Service } from "./catalog";
import { isNewClientVersion, isReturningVersion, serviceKind, type ClientType } from "./service-kinds";

/**
 * How long a visit lasts is decided by what the back end books (decision 045): Zenoti books the
 * treatment, then each add-on, one after the other, each at its catalog duration (the treatment's
 * recovery time after it), for whoever the guest is. A booking carries no length of its own, so
 * the length a guest is told and the times they are offered come from the catalog alone.
 */
export function visitMinutes(
  treatment: Pick<Service, "durationMinutes" | "recoveryMinutes">,
  addOns: readonly Pick<Service, "durationMinutes">[],
): number {
  return (
    Math.max(0, treatment.durationMinutes) +
    Math.max(0, treatment.recoveryMinutes) +
    addOns.reduce((sum, addOn) => sum + addedMinutes(addOn), 0)
  );
}

/** What an add-on adds to the visit (the spec's calculatedDuration of the add-on view). */
export function addedMinutes(addOn: Pick<Service, "durationMinutes">): number {
  return Math.max(0, addOn.durationMinutes);
}

/**
 * The chain's rule for an enhancement's length (spec section 9): 15 minutes with a new client's
 * facial, none with a returning client's. Zenoti cannot book a length by client, so the rule holds
 * only where the catalog holds it: each facial version offers enhancements of its own, of these
 * lengths. `enhancementsAgainstRule` lists where a catalog does not.
 */
export const ENHANCEMENT_MINUTES: Readonly<Record<ClientType, number>> = { new: 15, returning: 0 };

/** The client a facial version is for: the new-client version, or the returning one. */
function facialClient(name: string): ClientType | null {
  if (serviceKind(name) !== "facial") return null;
  if (isNewClientVersion(name)) return "new";
  return isReturningVersion(name) ? "returning" : null;
}

export type EnhancementAgainstRule = { treatment: string; enhancement: string; minutes: number; expected: number };

/** The facials' enhancements whose catalog length is not the chain's rule for that facial's clients. */
export function enhancementsAgainstRule(catalog: readonly Service[]): EnhancementAgainstRule[] {
  const byId = new Map(catalog.map((s) => [s.id, s]));
  const found: EnhancementAgainstRule[] = [];
  for (const treatment of catalog) {
    const client = treatment.isAddOn ? null : facialClient(treatment.name);
    if (!client) continue;
    for (const id of treatment.addOnIds) {
      const addOn = byId.get(id);
      if (!addOn || !isEnhancement(addOn)) continue;
      const expected = ENHANCEMENT_MINUTES[client];
      if (addedMinutes(addOn) !== expected)
        found.push({ treatment: treatment.name, enhancement: addOn.name, minutes: addedMinutes(addOn), expected });
    }
  }
  return found;
}

/** A visit's length as a guest reads it: "45 min", "1 hr", "1 hr 15 min". */
export function visitLengthLabel(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} hr` : `${hours} hr ${rest} min`;
}

/** What an add-on's line says about time: "+15 min", or that it fits in the visit's own time. */
export function addedMinutesLabel(addOn: Pick<Service, "durationMinutes">): string {
  const minutes = addedMinutes(addOn);
  return minutes > 0 ? `+${visitLengthLabel(minutes)}` : "no extra time";
}
