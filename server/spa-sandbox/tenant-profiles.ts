/**
 * A Zenoti organisation's answers differ with its settings and with the version of the API that
 * serves it, and each variant below is one that Zenoti's public documentation or public code that
 * calls `api.zenoti.com` shows (decision 035). The sandbox answers as one tenant profile: `sandbox`
 * is the shape it has always answered in; `strict` is every variant at once, the hardest tenant the
 * app must still work with.
 */
export type TenantProfile = {
  name: TenantProfileName;
  /** `GET /v1/guests/{id}/accounts` as docs.zenoti.com's current reference shows it: a bare array. */
  cardsAsBareArray: boolean;
  /** Working hours as Zenoti's one documented form writes them: `"start_time": "800"`, `"end_time": "2200"`. */
  hoursAsHhmm: boolean;
  /**
   * A center's `time_zone` as Zenoti's webhook samples show it: the numeric `id` set, and `name`,
   * `standard_name`, `identifier_name` and `abbreviation` all null.
   */
  zoneNamesNull: boolean;
  /** Errors with `code` and `message` at the top level of the body (Zenoti's pagination error). */
  topLevelErrors: boolean;
  /**
   * The organisation setting "Search Guest Across Centers". Off: a search without `center_id` is an
   * error; with `center_id`, only that center's guests are found.
   */
  searchAcrossCenters: boolean;
  /** A guest read without `expand` carries no `preferences` (null), as Zenoti's guest object documents. */
  preferencesOnlyOnExpand: boolean;
  /**
   * The hosted card page on the organisation's own web host rather than on the API's: its origin, or
   * null for the API's (or, embedded, the visitor's) origin.
   */
  hostedPageOrigin: string | null;
};

export const TENANT_PROFILE_NAMES = ["sandbox", "strict"] as const;
export type TenantProfileName = (typeof TENANT_PROFILE_NAMES)[number];

export const SANDBOX_PROFILE: TenantProfile = {
  name: "sandbox",
  cardsAsBareArray: false,
  hoursAsHhmm: false,
  zoneNamesNull: false,
  topLevelErrors: false,
  searchAcrossCenters: true,
  preferencesOnlyOnExpand: false,
  hostedPageOrigin: null,
};

export const STRICT_PROFILE: TenantProfile = {
  name: "strict",
  cardsAsBareArray: true,
  hoursAsHhmm: true,
  zoneNamesNull: true,
  topLevelErrors: true,
  searchAcrossCenters: false,
  preferencesOnlyOnExpand: true,
  hostedPageOrigin: null,
};

/** A named profile, with the hosted page's origin of this set-up when it has one of its own. */
export function tenantProfile(
  name: TenantProfileName,
  options: { hostedPageOrigin?: string | null } = {},
): TenantProfile {
  const base = name === "strict" ? STRICT_PROFILE : SANDBOX_PROFILE;
  return { ...base, hostedPageOrigin: options.hostedPageOrigin ?? base.hostedPageOrigin };
}
