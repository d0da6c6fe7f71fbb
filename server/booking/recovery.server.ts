import { randomUUID } from "node:crypto";
import { href } from "react-router";
import { APPOINTMENT_STATUS, firstService } from "~/domain/appointments";
import { bookingDates } from "~/domain/booking";
import { sameId, type Center, type Service } from "~/domain/catalog";
import { RECOVERY_LINK_DAYS, recoveryDueAt, recoveryVerdict } from "~/domain/recovery";
import { clinicToday, formatSlot } from "~/lib/dates";
import type { PeriodicPass } from "../jobs/periodic-passes.server";
import { logger } from "../observability/logger.server";
import type { Services } from "../services";
import { isSpaError } from "../spa/errors.server";
import type { BookingRecovery } from "../store/stores.server";
import type { Draft } from "./draft.server";
import { openTimes } from "./holds.server";
import { firstDayWithTimes } from "./time-step.server";

/**
 * The recovery message for an unfinished booking (decision 059): a guest who gave their details,
 * ticked the box and stopped before the confirmation gets one email, after the delay operations
 * set and never in the clinic's night, with a signed link that brings back the treatment, clinic
 * and add-ons, and the nearest open times. Nothing is sent when they booked meanwhile, without the
 * box ticked, or twice for one draft. The record keeps ids, one contact and the guest's back-end id;
 * the contact goes when the link is followed, and the record when the guest books or it expires.
 */

/** The outbox's and the logs' name for the message. */
export const RECOVERY_MESSAGE_KIND = "booking-recovery";
const DAY_MS = 24 * 3_600_000;
const LINK_MS = RECOVERY_LINK_DAYS * DAY_MS;
const PASS_EVERY_MS = 60_000;
const BATCH = 20;
/** The nearest open times a message suggests. */
const SUGGESTED_TIMES = 3;

/**
 * The details step's answer to the box: ticked, the draft gets its record (or the record it has is
 * brought up to date while nothing was sent); unticked, a record not yet sent is removed (the guest
 * took their consent back). A draft whose message went out never gets another.
 */
export async function noteRecoveryConsent(
  services: Services,
  input: {
    draft: Draft;
    consent: boolean;
    email: string;
    timeZone: string;
    origin: string;
    now?: number;
  },
): Promise<void> {
  const { draft } = input;
  if (!draft.id || !draft.serviceId) return;
  const store = services.stores.bookingRecoveries;
  const existing = await store.forDraft(draft.id);
  if (existing && existing.state !== "pending") return;
  if (!input.consent) {
    if (existing) await store.remove(existing.id);
    return;
  }
  const now = input.now ?? Date.now();
  const { RECOVERY_DELAY_MINUTES, RECOVERY_NIGHT_HOURS } = services.env;
  const fields = {
    centerId: draft.centerId,
    serviceId: draft.serviceId,
    addOnIds: draft.addOnIds,
    guestId: draft.guestId ?? draft.verification?.guestId ?? null,
    contact: { channel: "email" as const, to: input.email },
    consentAt: now,
    timeZone: input.timeZone,
    origin: input.origin,
    dueAt: recoveryDueAt(now, RECOVERY_DELAY_MINUTES * 60_000, input.timeZone, RECOVERY_NIGHT_HOURS),
  };
  if (existing) {
    await store.save({ ...existing, ...fields });
    return;
  }
  await store.createOnce({
    id: randomUUID(),
    draftId: draft.id,
    createdAt: now,
    state: "pending",
    sentAt: null,
    ...fields,
  });
}

/** The draft's guest ticked the box and its message is still to be sent: the details step shows it ticked. */
export async function recoveryConsentGiven(services: Services, draft: Draft): Promise<boolean> {
  if (!draft.id) return false;
  return (await services.stores.bookingRecoveries.forDraft(draft.id))?.state === "pending";
}

/** The guest booked: none of their records is needed any more (nor is any message sent). */
export async function forgetRecoveriesOfGuest(services: Services, guestId: string): Promise<void> {
  await services.stores.bookingRecoveries
    .removeForGuest(guestId)
    .catch((error: Error) => logger.warn("recovery records not removed", { error: error.message }));
}

/** The guest left the booking on purpose (its cancel page): no message for it. */
export async function forgetRecoveryOfDraft(services: Services, draft: Draft | null): Promise<void> {
  if (!draft?.id) return;
  const record = await services.stores.bookingRecoveries.forDraft(draft.id);
  if (record && record.state === "pending") await services.stores.bookingRecoveries.remove(record.id);
}

/** How long after it was made a record is kept at most: the delay, then the link's days, and a day. */
function keptForMs(services: Services): number {
  return services.env.RECOVERY_DELAY_MINUTES * 60_000 + LINK_MS + DAY_MS;
}

/**
 * One pass: records past their time are removed; then each record due is looked at, and sent when
 * the rules say so. Several instances may run it: a record is taken for sending by one of them
 * (`claim`), and one taken is never taken again, even when the instance that took it died before
 * it could say it was sent: a message may then be lost, never sent twice.
 */
export async function sendRecoveryMessages(
  services: Services,
  options: { clock?: () => number } = {},
): Promise<number> {
  const clock = options.clock ?? Date.now;
  const store = services.stores.bookingRecoveries;
  const expired = await store.removeCreatedBefore(clock() - keptForMs(services), 100);
  if (expired > 0) logger.info("recovery records expired", { count: expired });
  let sent = 0;
  for (const due of await store.listDue(clock(), BATCH)) {
    const verdict = recoveryVerdict(
      { ...due, hasContact: Boolean(due.contact) },
      clock(),
      services.env.RECOVERY_NIGHT_HOURS,
    );
    if (verdict === "wait") continue;
    if (verdict === "done") {
      await store.remove(due.id);
      continue;
    }
    const taken = await store.claim(due.id);
    if (!taken) continue;
    try {
      const outcome = await sendOne(services, taken, clock);
      logger.info("recovery message", { outcome });
      if (outcome === "sent") sent += 1;
    } catch (error) {
      // Nothing went out (the notifier refused it): the record waits for the next pass.
      await store.save({ ...taken, state: "pending" });
      logger.warn("recovery message not sent", { error: error instanceof Error ? error.message : String(error) });
    }
  }
  return sent;
}

type SendOutcome = "sent" | "booked" | "gone" | "later";

async function sendOne(services: Services, record: BookingRecovery, clock: () => number): Promise<SendOutcome> {
  const store = services.stores.bookingRecoveries;
  const later = async (): Promise<SendOutcome> => {
    await store.save({ ...record, state: "pending" });
    return "later";
  };
  let choice: Awaited<ReturnType<typeof chosenBooking>>;
  let times: string[];
  try {
    choice = await chosenBooking(services, record);
    if (!choice) {
      await store.remove(record.id);
      return "gone";
    }
    if (record.guestId && (await bookedMeanwhile(services, record.guestId, choice.center, clock()))) {
      await store.removeForGuest(record.guestId);
      return "booked";
    }
    times = await nearestTimes(services, record, choice.center, clock());
  } catch (error) {
    if (!isSpaError(error)) throw error;
    logger.warn("recovery message waits: back end unavailable", { kind: error.kind, status: error.status });
    return later();
  }
  const token = services.recoveryLinks.sign(record.id, clock() + LINK_MS);
  const link = `${record.origin}${href("/appointment/resume/:token", { token })}`;
  await services.notifier.send({
    channel: record.contact!.channel,
    to: record.contact!.to,
    kind: RECOVERY_MESSAGE_KIND,
    subject: `Your ${choice.service.displayName} at ${choice.center.name} is waiting`,
    body: recoveryMessage({ ...choice, link, times }),
  });
  await store.save({ ...record, state: "sent", sentAt: clock() });
  return "sent";
}

/** The message's words. */
export function recoveryMessage(input: {
  center: Center;
  service: Service;
  addOns: Service[];
  link: string;
  times: string[];
}): string {
  const withAddOns = input.addOns.length > 0 ? ` with ${input.addOns.map((a) => a.displayName).join(", ")}` : "";
  const lines = [
    `You were booking ${input.service.displayName}${withAddOns} at ${input.center.name} and did not finish.`,
    "",
    "Pick up where you left off; your choices are kept:",
    input.link,
    "",
  ];
  if (input.times.length > 0)
    lines.push("The nearest open times:", ...input.times.map((t) => `- ${formatSlot(t)}`), "");
  lines.push(
    `The link works for ${RECOVERY_LINK_DAYS} days. This is the only message we send about this booking; you asked for it when you gave your details.`,
  );
  return lines.join("\n");
}

/** The clinic, treatment and add-ons the record names, as the catalog has them now; null when the clinic or treatment is gone. */
async function chosenBooking(
  services: Services,
  record: Pick<BookingRecovery, "centerId" | "serviceId" | "addOnIds">,
): Promise<{ center: Center; service: Service; addOns: Service[] } | null> {
  const center = await services.catalog.getCenter(record.centerId);
  if (!center) return null;
  const catalog = (await services.catalog.listServices(center.id)) ?? [];
  const service = catalog.find((s) => sameId(s.id, record.serviceId) && !s.isAddOn);
  if (!service) return null;
  const addOns = record.addOnIds
    .map((id) => catalog.find((s) => sameId(s.id, id) && s.isAddOn))
    .filter((s): s is Service => Boolean(s));
  return { center, service, addOns };
}

/**
 * The guest has a visit at this clinic from today on, booked (status 0): they booked meanwhile,
 * here, in another window or by phone. One call; the pass's booked hook has removed the records of
 * bookings made here already, so this catches the others.
 */
async function bookedMeanwhile(services: Services, guestId: string, center: Center, now: number): Promise<boolean> {
  const today = clinicToday(center.timeZone, new Date(now));
  const visits = await services.spa.listGuestAppointments(guestId, { startDate: today, size: 20 });
  return visits.some(
    (visit) =>
      (!visit.centerId || sameId(visit.centerId, center.id)) &&
      firstService(visit.services)?.status === APPOINTMENT_STATUS.NEW,
  );
}

/** The first open times of the nearest day with any, as the time step would open on. */
async function nearestTimes(
  services: Services,
  record: BookingRecovery,
  center: Center,
  now: number,
): Promise<string[]> {
  const today = clinicToday(center.timeZone, new Date(now));
  const query = { centerId: center.id, serviceId: record.serviceId, addOnIds: record.addOnIds, therapistId: null };
  const day = await firstDayWithTimes({ date: today, dates: bookingDates(today), chosen: false }, (date) =>
    openTimes(services, { ...query, date }),
  );
  return day.times.slice(0, SUGGESTED_TIMES);
}

/** The recovery messages' pass: at start and then every minute (decision 048). */
export function recoveryMessagesPass(services: Services): PeriodicPass {
  return { name: "recovery messages", everyMs: PASS_EVERY_MS, run: () => sendRecoveryMessages(services) };
}

export type RecoveryLinkView =
  | { kind: "invalid" }
  | { kind: "open"; center: Center; service: Service; addOns: Service[] };

/** The record a genuine, unexpired link names, when it was sent (or followed) and still exists. */
async function recordOfLink(services: Services, token: string | undefined): Promise<BookingRecovery | null> {
  const id = services.recoveryLinks.verify(token);
  if (!id) return null;
  const record = await services.stores.bookingRecoveries.get(id);
  return record && (record.state === "sent" || record.state === "followed") ? record : null;
}

/** What a recovery link's page shows; reading it changes nothing (a mail scanner may open it). */
export async function viewRecoveryLink(services: Services, token: string | undefined): Promise<RecoveryLinkView> {
  const record = await recordOfLink(services, token);
  const choice = record ? await chosenBooking(services, record) : null;
  return choice ? { kind: "open", ...choice } : { kind: "invalid" };
}

/**
 * The guest pressed to continue: the draft the link brings back (the same draft, so no second
 * message is ever made for it), and the record keeps no contact from now on.
 */
export async function followRecoveryLink(
  services: Services,
  token: string | undefined,
): Promise<{ kind: "invalid" } | { kind: "restored"; draft: Draft }> {
  const record = await recordOfLink(services, token);
  const choice = record ? await chosenBooking(services, record) : null;
  if (!record || !choice) return { kind: "invalid" };
  if (record.state !== "followed")
    await services.stores.bookingRecoveries.save({ ...record, state: "followed", contact: null, guestId: null });
  return {
    kind: "restored",
    draft: {
      id: record.draftId,
      centerId: choice.center.id,
      serviceId: choice.service.id,
      addOnIds: choice.addOns.map((a) => a.id),
      therapistId: null,
    },
  };
}
