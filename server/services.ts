import type { VisitAttribution } from "~/domain/attribution";
import type { Analytics } from "./analytics/analytics.server";
import type { RateLimiter } from "./accounts/rate-limit.server";
import type { ManageLinks } from "./appointments/manage-link.server";
import type { RecoveryLinks } from "./booking/recovery-link.server";
import type { Env } from "./env.server";
import type { Geocoder } from "./geo/geocoder.server";
import type { LeadWebhooks } from "./leads/lead-webhooks.server";
import type { SpamTrap } from "./limits/spam-trap.server";
import type { Notifier } from "./notify/notifier.server";
import type { SessionCookies } from "./session.server";
import type { CallGovernor } from "./spa/call-governor.server";
import type { CachedCatalog } from "./spa/catalog-cache.server";
import type { SpaClient } from "./spa/client.server";
import type { Stores } from "./store/stores.server";
import type { WaitlistLinks } from "./waitlist/links.server";
import type { ImagePicker } from "./images/images.server";

/*
 * The contract every use case works through, apart from its wiring (decision 049): this file
 * imports types only, and only from modules that import no use case, so that any module may
 * import it without an import circle. `server/compose.server.ts` builds the services.
 */

/** Everything a loader or action may reach, built once at start from the configuration. */
export type Services = {
  env: Env;
  spa: SpaClient;
  catalog: CachedCatalog;
  stores: Stores;
  geocoder: Geocoder;
  notifier: Notifier;
  /** Public origins the hosted payment pages may be on (the spa back end's). */
  hostedPaymentOrigins: string[];
  /**
   * With the embedded sandbox, the path its hosted pages are served under on the origin the guest
   * is using (the app's own, whatever its public name); null with a real back end.
   */
  embeddedHostedPath: string | null;
  /** The picture each clinic, treatment and nurse is shown with, and the hosts they may come from (decision 060). */
  images: ImagePicker;
  /** Signs and checks the guest tokens of texted booking links. */
  linkSigner: LinkSigner;
  /** Signs and reads the links that open one visit for a guest without an account. */
  manageLinks: ManageLinks;
  /** Signs and reads the links of the recovery messages for unfinished bookings (decision 059). */
  recoveryLinks: RecoveryLinks;
  /** Signs and reads the links of the waitlist's messages: an open time offered, and leaving (decision 058). */
  waitlistLinks: WaitlistLinks;
  accounts: AccountService;
  /** New leads (a registration, a new guest's booking) for the chain's marketing webhooks. */
  leads: LeadWebhooks;
  /** The funnel's events, recorded on the server so they exist without JavaScript (decision 026). */
  analytics: Analytics;
  rateLimiter: RateLimiter;
  /** The hidden field of the public sign-up forms (decision 052). */
  spamTrap: SpamTrap;
  /** Zenoti's calls a minute for the organisation, shared out by priority (decision 036); null when SPA_CALL_GOVERNOR is off. */
  callGovernor: CallGovernor | null;
  sessions: SessionCookies;
};

/*
 * The ports whose implementations work through the services themselves, so their types live here
 * rather than beside them: `server/booking/sms-link.server.ts` and
 * `server/accounts/account-service.server.ts` build them.
 */

/** Signed, expiring guest tokens for texted booking links. */
export type LinkSigner = {
  sign(guestId: string, centerId: string, ttlSeconds?: number): string;
  /** The guest and clinic of an untampered, unexpired token; null for anything else. */
  verify(token: string | null | undefined): { guestId: string; centerId: string } | null;
};

export type CurrentUser = { id: string; email: string; guestId: string; centerId: string };

export type Registration = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  centerId: string;
  address: string;
  city: string;
  zip: string;
  /** YYYY-MM-DD, or null when the guest gave none (never a made-up one, decision 039). */
  birthDate?: string | null;
  /** Zenoti's guest gender (-1 Not specified); not sent when not given. */
  gender?: number;
  /** The guest's language (decision 043), or null when they chose none: then none is sent. */
  language?: number | null;
  password: string;
  referralCode: string | null;
  marketingEmail: boolean;
  marketingSms: boolean;
  /** Where the visit came from: its landing-page tag and an ad click (a partner or a referral too). */
  attribution?: VisitAttribution;
};

export type AccountResult<T> =
  | { ok: true; value: T }
  /** `existingGuest`: the email is a client's in the back end but has no password here; a code was sent. */
  | { ok: false; field: string; message: string; existingGuest?: true };

/**
 * Accounts: our own records (hashed passwords, sessions, one-time codes) in the stores,
 * each linked to a spa guest. The password never leaves this service.
 */
export type AccountService = {
  /** The signed-in user of a session token, or null (expired, revoked, unknown). */
  currentUser(token: string | null | undefined): Promise<CurrentUser | null>;
  register(input: Registration): Promise<AccountResult<{ token: string; user: CurrentUser }>>;
  login(email: string, password: string): Promise<AccountResult<{ token: string; user: CurrentUser }>>;
  logout(token: string | null | undefined): Promise<void>;
  /** Changes the password; every other session of the user is signed out. */
  changePassword(
    user: CurrentUser,
    token: string,
    oldPassword: string,
    newPassword: string,
  ): Promise<AccountResult<null>>;
  /**
   * Sends a one-time code by email (and by text when the guest has a mobile number) to an account,
   * a guest of the guest flow, or a client the back end knows by this email. The caller answers
   * the same either way.
   */
  sendResetCode(email: string): Promise<"sent" | "cooldown" | "unknown">;
  /** Checks the code and sets the password (the first one, for a guest-flow guest). */
  resetPassword(email: string, code: string, newPassword: string): Promise<AccountResult<null>>;
};
