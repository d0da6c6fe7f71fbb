import { randomUUID } from "node:crypto";
import { logger } from "../observability/logger.server";

/**
 * A new lead for the chain's marketing systems: a registration, or a booking by a guest this
 * storefront created (sent when their guest record is made and their time chosen, so a booking
 * left unfinished is still followed up). It carries contact details on purpose (that is what a lead is), so it goes
 * only to the URLs operations configure, and never into a log line.
 */
export type Lead = {
  /** "referral-reward": a referrer earned points (the automation credits them at the back end, decision 032). */
  kind: "registration" | "booking" | "referral-reward";
  firstName: string;
  lastName: string | null;
  email: string;
  phone: string | null;
  centerId: string;
  /** The back end's guest record. */
  guestId: string;
  /** For a booking: the time the guest chose (clinic-local) and the treatment. */
  booking?: { start: string; services: string[] };
  /** The guest's tags at the back end (Booking Lead, NBF, ...), when known. */
  tags?: string[];
  /** For a referral reward: the points, the friend's completed visit, and a key to credit them once by. */
  reward?: { points: number; friendVisitId: string; key: string };
};

/** Sends leads to the configured webhooks in the background: never awaited by a customer's request. */
export interface LeadWebhooks {
  readonly kind: "http" | "off";
  /** Queues the lead for every configured URL; returns at once and never throws. */
  send(lead: Lead): void;
  /**
   * Posts the lead to every configured URL and says whether each accepted it ("sent"), one did not
   * ("failed"), or none is configured ("off"). Never throws. For a lead that must arrive (a
   * referral reward): the caller keeps it until it is sent, and never awaits it in a customer's request.
   */
  deliver(lead: Lead): Promise<"sent" | "failed" | "off">;
  /** Waits for the leads in flight, at most `timeoutMs`. */
  close(timeoutMs: number): Promise<void>;
  stats(): { sent: number; failed: number; dropped: number; inFlight: number };
}

/** The default: no URL is configured, nothing is sent. */
export function createNoLeadWebhooks(): LeadWebhooks {
  return {
    kind: "off",
    send() {},
    deliver: async () => "off",
    close: async () => {},
    stats: () => ({ sent: 0, failed: 0, dropped: 0, inFlight: 0 }),
  };
}

/** Each post's timeout (LEAD_WEBHOOK_TIMEOUT_MS), by default and at its least and most. */
export const LEAD_WEBHOOK_TIMEOUT_MS = 5_000;
export const MIN_LEAD_WEBHOOK_TIMEOUT_MS = 100;
export const MAX_LEAD_WEBHOOK_TIMEOUT_MS = 60_000;

/** At most this many posts wait at once; a lead beyond it is dropped and counted (a webhook that hangs holds no more memory). */
export const MAX_LEADS_IN_FLIGHT = 200;

/**
 * Posts each lead as JSON to each target (the automation service and the hooks service), each post
 * with its own timeout. A target that is slow, down or answers an error is logged (target name,
 * status, never the lead) and nothing else happens: the registration or booking stands.
 */
export function createHttpLeadWebhooks(options: {
  targets: { name: string; url: string }[];
  timeoutMs: number;
  fetch?: typeof fetch;
  clock?: () => Date;
}): LeadWebhooks {
  const doFetch = options.fetch ?? fetch;
  const clock = options.clock ?? (() => new Date());
  const inFlight = new Set<Promise<void>>();
  const counts = { sent: 0, failed: 0, dropped: 0 };

  /** Posts one lead to one target: true when it was accepted (a 2xx); a failure is counted and logged. */
  async function post(target: { name: string; url: string }, body: string, kind: Lead["kind"]): Promise<boolean> {
    try {
      const response = await doFetch(target.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        // A redirect would turn the post into a GET without the lead: an answer of its own, not a 2xx.
        redirect: "manual",
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      // The answer is not read beyond its status; drain it so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) {
        counts.failed += 1;
        logger.warn("lead webhook refused", { target: target.name, kind, status: response.status });
        return false;
      }
      counts.sent += 1;
      return true;
    } catch (error) {
      counts.failed += 1;
      const reason = (error as Error).name === "TimeoutError" ? "timeout" : "unreachable";
      logger.warn("lead webhook failed", { target: target.name, kind, reason });
      return false;
    }
  }

  const bodyOf = (lead: Lead) =>
    JSON.stringify({ id: randomUUID(), occurredAt: clock().toISOString(), source: "webstore", ...lead });

  /** A post the shutdown waits for. */
  function track<T>(sending: Promise<T>): Promise<T> {
    const settled = sending.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.finally(() => inFlight.delete(settled));
    return sending;
  }

  return {
    kind: "http",
    send(lead) {
      const body = bodyOf(lead);
      for (const target of options.targets) {
        if (inFlight.size >= MAX_LEADS_IN_FLIGHT) {
          counts.dropped += 1;
          logger.warn("lead webhook dropped: too many in flight", { target: target.name, kind: lead.kind });
          continue;
        }
        void track(post(target, body, lead.kind));
      }
    },
    async deliver(lead) {
      const body = bodyOf(lead);
      const accepted = await track(Promise.all(options.targets.map((target) => post(target, body, lead.kind))));
      return accepted.every(Boolean) ? "sent" : "failed";
    },
    async close(timeoutMs) {
      if (inFlight.size === 0) return;
      const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]).then(() => undefined), deadline]);
    },
    stats: () => ({ ...counts, inFlight: inFlight.size }),
  };
}

export function createLeadWebhooks(env: {
  LEAD_WEBHOOK_AUTOMATION_URL?: string;
  LEAD_WEBHOOK_HOOKS_URL?: string;
  LEAD_WEBHOOK_TIMEOUT_MS: number;
}): LeadWebhooks {
  const targets = [
    { name: "automation", url: env.LEAD_WEBHOOK_AUTOMATION_URL },
    { name: "hooks", url: env.LEAD_WEBHOOK_HOOKS_URL },
  ].filter((target): target is { name: string; url: string } => Boolean(target.url));
  return targets.length === 0
    ? createNoLeadWebhooks()
    : createHttpLeadWebhooks({ targets, timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS });
}
