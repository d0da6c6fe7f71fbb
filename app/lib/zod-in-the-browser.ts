/**
 * In the browser zod would probe `new Function` to compile its object parsers; the Content Security
 * Policy refuses it (no 'unsafe-eval'), and although zod falls back, the browser reports a CSP
 * violation on every page with a form. zod reads its settings from this global, so setting it here,
 * in a module the root route imports first, makes it jitless before any schema is built (the route
 * modules, and with them every schema, are evaluated after the root). `z.config({ jitless: true })`
 * would say the same, but importing zod here would load it on every public page, forms or not
 * (issue 15's JavaScript budget); the global is where that call writes. The server keeps the
 * compiled parsers.
 */
if (typeof document !== "undefined") {
  const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  holder.__zod_globalConfig ??= {};
  holder.__zod_globalConfig.jitless = true;
}

export {};
