// How every headless Chromium of the project is started: the browser tests (playwright.config.ts),
// `npm run bench` and `npm run screenshots`. Running as root in a container it needs no sandbox; it
// has no GPU; and it must never reach the network on its own (no updates, sync or first-run pages).
export const CHROMIUM_FLAGS = Object.freeze([
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
]);

/** Playwright's launch options: the build `CHROMIUM_PATH` names, else `fallbackPath`, with the flags above. */
export function chromiumLaunchOptions(fallbackPath) {
  return { executablePath: process.env.CHROMIUM_PATH ?? fallbackPath, args: [...CHROMIUM_FLAGS] };
}
