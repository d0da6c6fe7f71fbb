import { groupHours } from "~/domain/hours";
import { enhancementsAgainstRule, type EnhancementAgainstRule } from "~/domain/visit-length";
import type { Env } from "../env.server";
import { observeLogs } from "../observability/logger.server";
import { isHostedPageAllowed } from "../payments/hosted-pages.server";
import { createSpaClient, type SpaClientOptions } from "../spa/client.server";
import { isSpaError } from "../spa/errors.server";
import type { SpaAuth } from "../spa/http.server";

/**
 * The preflight of going live on a Zenoti organisation (`npm run spa:check`, decision 035): what the
 * app will meet there, read through the app's own client, each check with what to set where it
 * fails. It reads only, with one exception it names: the hosted card page is asked for (for the
 * availability guest; no card is saved without someone typing one).
 */

export type Verdict = "ok" | "warning" | "blocker";
export type PreflightRow = { check: string; verdict: Verdict; detail: string; fix?: string };

export type PreflightTarget = {
  env: Env;
  baseUrl: string;
  auth: SpaAuth;
  /** Where the app's hosted pages may be (the app's own rule, `hostedPageOrigins`). */
  hostedPaymentOrigins: string[];
  /** With the embedded sandbox: the path its hosted pages are served under on the visitor's origin. */
  embeddedHostedPath: string | null;
  /** The app's public origin, where a card page sends the guest back. */
  publicOrigin: string;
};

/** The headers of Zenoti's answers, kept as they come: the rate limit is read from them. */
function recordingFetch(seen: { headers: Headers | null; bodies: Map<string, unknown> }): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    seen.headers = response.headers;
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (/\/accounts$/.test(url.pathname) && (init?.method ?? "GET") === "GET") {
      seen.bodies.set(
        "cards",
        await response
          .clone()
          .json()
          .catch(() => null),
      );
    }
    return response;
  };
}

function describeHours(hours: ReturnType<typeof groupHours>): string {
  const open = hours.filter((row) => row.hours);
  return open.length === 0 ? "closed every day" : open.map((row) => `${row.days} ${row.hours}`).join(", ");
}

function failure(error: unknown): string {
  if (!isSpaError(error)) return String((error as Error).message ?? error).slice(0, 160);
  return `${error.kind} (HTTP ${error.status}${error.code === null ? "" : `, code ${error.code}`}): ${error.message}`.slice(
    0,
    200,
  );
}

export async function runPreflight(target: PreflightTarget): Promise<PreflightRow[]> {
  const { env } = target;
  const rows: PreflightRow[] = [];
  const seen = { headers: null as Headers | null, bodies: new Map<string, unknown>() };
  const dropped: string[] = [];
  const stopObserving = observeLogs((_level, message, fields) => {
    if (/dropped/.test(message))
      dropped.push(`${fields.kind ?? "entry"} ${fields.id ?? ""} (${fields.reason ?? ""})`.trim());
  });
  const options = (scope: "across-centers" | "per-center"): SpaClientOptions => ({
    baseUrl: target.baseUrl,
    auth: target.auth,
    timeoutMs: env.SPA_TIMEOUT_MS,
    fetch: recordingFetch(seen),
    timeZones: {
      byCenter: env.SPA_CENTER_TIME_ZONES,
      byZoneId: new Map([...env.SPA_TIME_ZONE_IDS].map(([id, zone]) => [Number(id), zone])),
    },
    // The availability guest is looked for on purpose here: it is the one guest the preflight may find.
    guestSearch: { scope, hiddenGuestIds: [] },
  });
  const spa = createSpaClient(options("across-centers"));
  const perCenter = createSpaClient(options("per-center"));

  try {
    // Authentication, and the clinics.
    let list: Awaited<ReturnType<typeof spa.listCenters>>;
    try {
      list = await spa.listCenters();
      rows.push({
        check: "authentication",
        verdict: "ok",
        detail: `${target.auth.type === "token" ? "token" : "API key"} accepted`,
      });
    } catch (error) {
      rows.push({
        check: "authentication",
        verdict: "blocker",
        detail: failure(error),
        fix: "check SPA_BASE_URL and SPA_API_KEY (or SPA_AUTH=token with its settings)",
      });
      return rows;
    }

    const limit = seen.headers?.get("organization-ratelimit-limit");
    rows.push(
      limit
        ? {
            check: "rate limit",
            verdict: "ok",
            detail: `Organization-RateLimit-Limit ${limit}; remaining ${seen.headers?.get("ratelimit-remaining") ?? "?"}, reset in ${seen.headers?.get("ratelimit-reset") ?? "?"} s`,
          }
        : {
            check: "rate limit",
            verdict: "warning",
            detail: "no Organization-RateLimit-Limit header: the app assumes Zenoti's 60 calls a minute",
          },
    );

    if (list.centers.length === 0 && list.withoutTimeZone.length === 0) {
      rows.push({
        check: "clinics",
        verdict: "blocker",
        detail: "the organisation lists no clinic",
        fix: "check the API key's organisation",
      });
    }
    for (const center of list.centers) {
      const hours = describeHours(groupHours(center.workingHours, (hhmm) => hhmm));
      rows.push({
        check: `clinic ${center.name}`,
        verdict: hours === "closed every day" ? "warning" : "ok",
        detail: `${center.timeZone}; ${hours}`,
        ...(hours === "closed every day"
          ? {
              fix: "its working hours could not be read (see the log's dropped lines): the clinic page shows it closed",
            }
          : {}),
      });
    }
    for (const clinic of list.withoutTimeZone) {
      rows.push({
        check: `clinic ${clinic.name}`,
        verdict: "blocker",
        detail: `time zone unknown (Zenoti's zone id ${clinic.zoneId ?? "none"}, no name): not bookable online`,
        fix:
          clinic.zoneId === null
            ? `SPA_CENTER_TIME_ZONES=${clinic.id}=<IANA zone>`
            : `SPA_TIME_ZONE_IDS=${clinic.zoneId}=<IANA zone>`,
      });
    }

    // Services and add-ons, clinic by clinic.
    const before = dropped.length;
    let services = 0;
    let addOns = 0;
    const offRule: (EnhancementAgainstRule & { clinic: string })[] = [];
    for (const center of list.centers) {
      try {
        const menu = (await spa.listServices(center.id)) ?? [];
        services += menu.filter((s) => !s.isAddOn).length;
        addOns += menu.filter((s) => s.isAddOn).length;
        offRule.push(...enhancementsAgainstRule(menu).map((found) => ({ ...found, clinic: center.name })));
      } catch (error) {
        rows.push({ check: `services at ${center.name}`, verdict: "blocker", detail: failure(error) });
      }
    }
    const lost = dropped.slice(before);
    rows.push({
      check: "services and add-ons",
      verdict: lost.length > 0 ? "warning" : "ok",
      detail: `${services} treatments and ${addOns} add-ons read${lost.length > 0 ? `; ${lost.length} entries dropped: ${lost.slice(0, 3).join("; ")}` : ""}`,
    });
    // Decision 045: an enhancement adds 15 minutes to the new-client facial and none to the returning one, through the catalog.
    rows.push(
      offRule.length === 0
        ? {
            check: "facial enhancement lengths",
            verdict: "ok",
            detail: "each facial's enhancements add the minutes the chain's rule gives",
          }
        : {
            check: "facial enhancement lengths",
            verdict: "warning",
            detail: `${offRule.length} enhancements off the rule, e.g. ${offRule
              .slice(0, 3)
              .map(
                (f) =>
                  `${f.enhancement} with ${f.treatment} at ${f.clinic} adds ${f.minutes} min (rule: ${f.expected})`,
              )
              .join("; ")}: guests are told and booked the catalog's length`,
            fix: "give the returning facial its own enhancements of the same names with no duration (decision 045)",
          },
    );

    // The availability guest, guest search, cards and the card page.
    const guest = await spa.getGuest(env.SPA_AVAILABILITY_GUEST_ID).catch((error: unknown) => {
      rows.push({ check: "availability guest", verdict: "blocker", detail: failure(error) });
      return undefined;
    });
    if (guest === null) {
      rows.push({
        check: "availability guest",
        verdict: "blocker",
        detail: "Zenoti knows no guest by SPA_AVAILABILITY_GUEST_ID",
        fix: "create the guest in Zenoti and set its id",
      });
    }
    if (!guest) return rows;
    rows.push({ check: "availability guest", verdict: "ok", detail: `found at clinic ${guest.centerId || "(none)"}` });

    const email = guest.email;
    if (!email) {
      rows.push({
        check: "guest search",
        verdict: "warning",
        detail: "the availability guest has no email to search by: give it one",
      });
    } else {
      const across = await spa.findGuestsByEmail(email).then(
        (found) => ({ ok: found.some((g) => g.id === guest.id), detail: `${found.length} found` }),
        (error: unknown) => ({ ok: false, detail: failure(error) }),
      );
      const here = await perCenter.findGuestsByEmail(email, guest.centerId).then(
        (found) => ({ ok: found.some((g) => g.id === guest.id), detail: `${found.length} found` }),
        (error: unknown) => ({ ok: false, detail: failure(error) }),
      );
      rows.push({
        check: "guest search without center_id",
        verdict: across.ok ? "ok" : "warning",
        detail: across.detail,
      });
      rows.push({ check: "guest search with center_id", verdict: here.ok ? "ok" : "blocker", detail: here.detail });
      const setting = env.SPA_GUEST_SEARCH;
      if (!across.ok && here.ok && setting === "across-centers") {
        rows.push({
          check: "guest search setting",
          verdict: "blocker",
          detail: "SPA_GUEST_SEARCH=across-centers, but this organisation searches per center only",
          fix: "SPA_GUEST_SEARCH=per-center (or auto)",
        });
      } else {
        const advice = across.ok ? "across-centers or auto" : "per-center (auto finds this out at the first search)";
        rows.push({
          check: "guest search setting",
          verdict: "ok",
          detail: `SPA_GUEST_SEARCH=${setting}; this organisation suits ${advice}`,
        });
      }
    }

    try {
      const cards = await spa.listCards(guest.id, guest.centerId);
      const body = seen.bodies.get("cards");
      const shape = Array.isArray(body)
        ? "a bare array"
        : body && typeof body === "object" && "accounts" in body
          ? "{ accounts: [...] }"
          : "an unknown shape";
      rows.push({
        check: "saved-card list",
        verdict: shape === "an unknown shape" ? "warning" : "ok",
        detail: `${shape}; ${cards.length} cards read`,
      });
    } catch (error) {
      rows.push({ check: "saved-card list", verdict: "blocker", detail: failure(error) });
    }

    const returnTo = `${target.publicOrigin}/appointment/payment`;
    try {
      const page = await spa.startCardCapture(guest.id, guest.centerId, returnTo);
      const host = new URL(page).origin;
      rows.push(
        isHostedPageAllowed(target, page, returnTo)
          ? { check: "hosted card page", verdict: "ok", detail: `on ${host}, which the app sends guests to` }
          : {
              check: "hosted card page",
              verdict: "blocker",
              detail: `on ${host}, which the app refuses: "Add a card" would fail for everyone`,
              fix: `HOSTED_PAYMENT_ORIGINS=${host}`,
            },
      );
    } catch (error) {
      rows.push({ check: "hosted card page", verdict: "blocker", detail: failure(error) });
    }
    return rows;
  } finally {
    stopObserving();
  }
}

/** The readiness table as text: one line a check, what to set under a failing one. */
export function formatPreflight(rows: PreflightRow[]): string {
  const width = Math.min(48, Math.max(...rows.map((row) => row.check.length)));
  const mark: Record<Verdict, string> = { ok: "ok     ", warning: "WARNING", blocker: "BLOCKER" };
  const lines = rows.map((row) => {
    const line = `${mark[row.verdict]}  ${row.check.padEnd(width)}  ${row.detail}`;
    return row.fix ? `${line}\n${" ".repeat(width + 11)}set: ${row.fix}` : line;
  });
  const blockers = rows.filter((row) => row.verdict === "blocker").length;
  const warnings = rows.filter((row) => row.verdict === "warning").length;
  lines.push(
    "",
    blockers === 0
      ? `Ready: no blocker (${warnings} warnings).`
      : `Not ready: ${blockers} blockers, ${warnings} warnings.`,
  );
  return lines.join("\n");
}
