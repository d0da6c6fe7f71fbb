import { createHash } from "node:crypto";

export type CspOptions = {
  development: boolean;
  /** Adding a card posts to the payment back end's hosted page, which is on its own origin. */
  formActionOrigins: readonly string[];
  /** The browser posts its error reports to Sentry's host when a DSN is set (decision 027). */
  connectOrigins?: readonly string[];
  /** Pictures of clinics, treatments and nurses from the configured image hosts (decision 060). */
  imageOrigins?: readonly string[];
};

/**
 * The one inline style the pages carry: the style element remix-utils' honeypot inputs render
 * (decision 052). The site's stylesheet hides the trap itself; this hash only lets the element be
 * without a violation, wherever it is rendered (the browser never learns the nonce, so a form shown
 * after a navigation could not carry it).
 */
export const SPAM_TRAP_STYLE = ".__honeypot_inputs { display: none; }";
const SPAM_TRAP_STYLE_HASH = `'sha256-${createHash("sha256").update(SPAM_TRAP_STYLE, "utf8").digest("base64")}'`;

/**
 * The page's Content-Security-Policy. `scriptSources` says which inline scripts may run: a nonce
 * made for this response, or the hashes of the scripts of a page kept in the render cache
 * (decision 023). Scripts those load are trusted through 'strict-dynamic'.
 */
export function contentSecurityPolicy(
  scriptSources: readonly string[],
  { development, formActionOrigins, connectOrigins = [], imageOrigins = [] }: CspOptions,
): string {
  const scriptSrc = development
    ? ["'self'", ...scriptSources, "'unsafe-eval'"]
    : ["'self'", ...scriptSources, "'strict-dynamic'"];
  const connectSrc = ["'self'", ...(development ? ["ws:"] : []), ...connectOrigins];
  return [
    "default-src 'self'",
    `script-src ${scriptSrc.join(" ")}`,
    // React Router's dev server injects styles; the built app only links stylesheets.
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' ${SPAM_TRAP_STYLE_HASH}`,
    ["img-src 'self' data:", ...imageOrigins].join(" "),
    `connect-src ${connectSrc.join(" ")}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self' ${formActionOrigins.join(" ")}`.trim(),
    "frame-ancestors 'none'",
  ].join("; ");
}

export const nonceSource = (nonce: string) => `'nonce-${nonce}'`;

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * The CSP hash source of every inline script of a document (one with no `src`), as the browser
 * hashes it: the script's text exactly as written between its tags.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
