import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestGuest, startSandbox, TEST_API_KEY, type TestSandbox } from "../../tests/helpers/sandbox-server";
import { createRecordingAnalytics } from "../../tests/helpers/recording-analytics";
import { parseEnv } from "../env.server";
import { createOutboxNotifier } from "../notify/notifier.server";
import type { Services } from "../services";
import { seedGuid } from "../spa-sandbox/db";
import { createCachedCatalog } from "../spa/catalog-cache.server";
import { createSpaClient } from "../spa/client.server";
import { createSqliteStores } from "../store/sqlite-store.server";
import type { Draft } from "./draft.server";
import { createRecoveryLinks } from "./recovery-link.server";
import {
  followRecoveryLink,
  forgetRecoveriesOfGuest,
  forgetRecoveryOfDraft,
  noteRecoveryConsent,
  RECOVERY_MESSAGE_KIND,
  recoveryConsentGiven,
  sendRecoveryMessages,
  viewRecoveryLink,
} from "./recovery.server";

/**
 * The recovery message against the sandbox and the SQLite store: one message, after the delay and
 * out of the clinic's night, never without consent, never when the guest booked, never twice; and
 * the link that brings the booking back, or a forged or expired one that changes nothing.
 */

const AUSTIN = seedGuid("center:ATX");
const FACIAL = seedGuid("service:FT-NEW");
const LED = seedGuid("service:ADD-LED");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** 09:00 in Austin: the sandbox's now, and when each test's guest gave their details. */
const START = Date.parse("2026-11-30T15:00:00Z");
const ORIGIN = "https://book.glowclinic.example";

let sandbox: TestSandbox;
let services: Services;
let notifier: ReturnType<typeof createOutboxNotifier>;
let now = START;
const clock = () => now;
let n = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => START, holdSeconds: 3600 });
  const spa = createSpaClient({ baseUrl: sandbox.baseUrl, auth: { type: "apikey", apiKey: TEST_API_KEY } });
  notifier = createOutboxNotifier(":memory:");
  services = {
    env: parseEnv({ NODE_ENV: "test" }),
    spa,
    stores: createSqliteStores(":memory:"),
    catalog: createCachedCatalog(spa, { ttlMs: 600_000, staleMs: 0 }),
    notifier,
    analytics: createRecordingAnalytics(),
    recoveryLinks: createRecoveryLinks(["a-secret-of-at-least-thirty-two-characters!"], clock),
  } as unknown as Services;
});
afterAll(async () => {
  notifier.close();
  await sandbox.stop();
});
beforeEach(() => {
  now = START;
});

/** A new guest's draft with the facial and its LED add-on, stopped at the payment step. */
async function stoppedDraft(): Promise<Draft & { id: string; guestId: string }> {
  n += 1;
  return {
    id: `draft-${n}`,
    centerId: AUSTIN,
    serviceId: FACIAL,
    addOnIds: [LED],
    therapistId: null,
    guestId: await createTestGuest(services.spa, AUSTIN, "Ana", "Lopez"),
    details: { firstName: "Ana", lastName: "Lopez", email: `ana.${n}@example.com`, phone: "5125550100" },
  };
}

async function consent(draft: Draft, given = true, at = START) {
  await noteRecoveryConsent(services, {
    draft,
    consent: given,
    email: draft.details!.email,
    timeZone: "America/Chicago",
    origin: ORIGIN,
    now: at,
  });
}

async function messagesTo(email: string) {
  return (await notifier.recent(500)).filter((m) => m.to === email && m.kind === RECOVERY_MESSAGE_KIND);
}

/** The link's token in a message's body. */
function tokenOf(body: string): string {
  const match = /\/appointment\/resume\/([A-Za-z0-9_.-]+)/.exec(body);
  if (!match) throw new Error(`no link in ${body}`);
  return match[1];
}

describe("the recovery message", () => {
  it("goes once, after the delay, with a link and the nearest open times", async () => {
    const draft = await stoppedDraft();
    await consent(draft);
    expect(await recoveryConsentGiven(services, draft)).toBe(true);

    now = START + 59 * MINUTE;
    await sendRecoveryMessages(services, { clock });
    expect(await messagesTo(draft.details!.email)).toEqual([]);

    now = START + 61 * MINUTE;
    await sendRecoveryMessages(services, { clock });
    const [message, ...more] = await messagesTo(draft.details!.email);
    expect(more).toEqual([]);
    expect(message.channel).toBe("email");
    expect(message.subject).toBe("Your Signature Laser Facial - New Client at Glow Clinic Austin Downtown is waiting");
    expect(message.body).toContain(
      "with LED Light Therapy Enhancement at Glow Clinic Austin Downtown and did not finish.",
    );
    expect(message.body).toContain(`${ORIGIN}/appointment/resume/`);
    expect(message.body).toMatch(/The nearest open times:\n- \w{3} \w{3} \d{1,2} @ \d{1,2}:\d{2} [AP]M\n/);
    // The message names no one: no first name, no mobile.
    expect(message.body).not.toMatch(/Ana|5125550100/);

    // Not twice: later passes, and the same draft's details given again, send nothing more.
    now += DAY;
    await sendRecoveryMessages(services, { clock });
    await consent(draft, true, now);
    now += 2 * 60 * MINUTE;
    await sendRecoveryMessages(services, { clock });
    expect(await messagesTo(draft.details!.email)).toHaveLength(1);
    expect(await recoveryConsentGiven(services, draft)).toBe(false);
  });

  it("is never sent without consent, and a box unticked again takes it back", async () => {
    const never = await stoppedDraft();
    await consent(never, false);
    const changed = await stoppedDraft();
    await consent(changed, true);
    await consent(changed, false);
    expect(await recoveryConsentGiven(services, changed)).toBe(false);
    now = START + 2 * 60 * MINUTE;
    await sendRecoveryMessages(services, { clock });
    expect(await messagesTo(never.details!.email)).toEqual([]);
    expect(await messagesTo(changed.details!.email)).toEqual([]);
  });

  it("waits for the morning when the delay ends in the clinic's night", async () => {
    const draft = await stoppedDraft();
    // 20:30 in Austin.
    const evening = Date.parse("2026-12-01T02:30:00Z");
    await consent(draft, true, evening);
    now = evening + 61 * MINUTE;
    await sendRecoveryMessages(services, { clock });
    now = Date.parse("2026-12-01T13:59:00Z");
    await sendRecoveryMessages(services, { clock });
    expect(await messagesTo(draft.details!.email)).toEqual([]);
    // 08:00 in Austin.
    now = Date.parse("2026-12-01T14:00:00Z");
    await sendRecoveryMessages(services, { clock });
    expect(await messagesTo(draft.details!.email)).toHaveLength(1);
  });

  it("is not sent when the guest booked meanwhile: through us, or a visit the back end has", async () => {
    const throughUs = await stoppedDraft();
    await consent(throughUs);
    await forgetRecoveriesOfGuest(services, throughUs.guestId);

    const byPhone = await stoppedDraft();
    await consent(byPhone);
    const bookingId = await services.spa.createBooking({
      centerId: AUSTIN,
      date: "2026-12-03",
      guestId: byPhone.guestId,
      serviceId: FACIAL,
      therapistId: null,
      addOnIds: [],
    });
    const [open] = (await services.spa.listSlots(bookingId, "2026-12-03")).times;
    expect(await services.spa.reserveSlot(bookingId, open, "America/Chicago")).toBeTruthy();
    expect(await services.spa.confirmBooking(bookingId, "America/Chicago")).toBeTruthy();

    now = START + 2 * 60 * MINUTE;
    await sendRecoveryMessages(services, { clock });
    expect(await messagesTo(throughUs.details!.email)).toEqual([]);
    expect(await messagesTo(byPhone.details!.email)).toEqual([]);
    expect(await services.stores.bookingRecoveries.forDraft(byPhone.id)).toBeNull();
  });

  it("is not sent for a booking left on purpose", async () => {
    const draft = await stoppedDraft();
    await consent(draft);
    await forgetRecoveryOfDraft(services, draft);
    now = START + 2 * 60 * MINUTE;
    await sendRecoveryMessages(services, { clock });
    expect(await messagesTo(draft.details!.email)).toEqual([]);
  });

  it("goes once when two instances run the pass at the same moment", async () => {
    const draft = await stoppedDraft();
    await consent(draft);
    now = START + 2 * 60 * MINUTE;
    const counts = await Promise.all([1, 2, 3].map(() => sendRecoveryMessages(services, { clock })));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await messagesTo(draft.details!.email)).toHaveLength(1);
  });

  it("is lost rather than sent twice when the instance sending it died", async () => {
    const draft = await stoppedDraft();
    await consent(draft);
    const record = (await services.stores.bookingRecoveries.forDraft(draft.id))!;
    expect(await services.stores.bookingRecoveries.claim(record.id)).not.toBeNull();
    now = START + 2 * 60 * MINUTE;
    await sendRecoveryMessages(services, { clock });
    expect(await messagesTo(draft.details!.email)).toEqual([]);
  });
});

describe("the recovery link", () => {
  async function sentLink(): Promise<{ draft: Draft & { id: string }; token: string }> {
    const draft = await stoppedDraft();
    await consent(draft);
    now = START + 2 * 60 * MINUTE;
    await sendRecoveryMessages(services, { clock });
    const [message] = await messagesTo(draft.details!.email);
    return { draft, token: tokenOf(message.body) };
  }

  it("shows the booking without changing anything, and brings back the same draft when pressed", async () => {
    const { draft, token } = await sentLink();
    const view = await viewRecoveryLink(services, token);
    expect(view.kind === "open" && [view.center.id, view.service.id, view.addOns.map((a) => a.id)]).toEqual([
      AUSTIN,
      FACIAL,
      [LED],
    ]);
    expect((await services.stores.bookingRecoveries.forDraft(draft.id))?.contact).not.toBeNull();

    const followed = await followRecoveryLink(services, token);
    expect(followed).toEqual({
      kind: "restored",
      draft: { id: draft.id, centerId: AUSTIN, serviceId: FACIAL, addOnIds: [LED], therapistId: null },
    });
    // The contact is gone; a second press brings the booking back again.
    expect(await services.stores.bookingRecoveries.forDraft(draft.id)).toMatchObject({
      state: "followed",
      contact: null,
      guestId: null,
    });
    expect((await followRecoveryLink(services, token)).kind).toBe("restored");
  });

  it("refuses a forged or expired link, and changes nothing", async () => {
    const { draft, token } = await sentLink();
    const before = await services.stores.bookingRecoveries.forDraft(draft.id);
    const [body, signature] = token.split(".");
    const forged = `${Buffer.from(JSON.stringify({ r: before!.id, exp: 9_999_999_999 })).toString("base64url")}.${signature}`;
    for (const bad of [forged, `${body}.${signature.slice(0, -2)}xx`, "", undefined]) {
      expect(await viewRecoveryLink(services, bad)).toEqual({ kind: "invalid" });
      expect(await followRecoveryLink(services, bad)).toEqual({ kind: "invalid" });
    }
    now += 8 * DAY;
    expect(await viewRecoveryLink(services, token)).toEqual({ kind: "invalid" });
    expect(await followRecoveryLink(services, token)).toEqual({ kind: "invalid" });
    expect(await services.stores.bookingRecoveries.forDraft(draft.id)).toEqual(before);
  });

  it("opens nothing before its message was sent, and its record is gone once it expired", async () => {
    const draft = await stoppedDraft();
    await consent(draft);
    const record = (await services.stores.bookingRecoveries.forDraft(draft.id))!;
    // A genuine signature over a record not sent (it cannot be had, but the rule holds).
    const early = services.recoveryLinks.sign(record.id, START + DAY);
    expect(await viewRecoveryLink(services, early)).toEqual({ kind: "invalid" });
    const { draft: sent } = await sentLink();
    now = START + 9 * DAY;
    await sendRecoveryMessages(services, { clock });
    expect(await services.stores.bookingRecoveries.forDraft(sent.id)).toBeNull();
  });
});
