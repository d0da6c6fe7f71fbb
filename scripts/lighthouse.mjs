// `npm run lighthouse`: Lighthouse on the public pages, the treatment step, sign-in and the signed-in
// account dashboard, against the targets (performance 95 or more; accessibility, best practices and
// SEO 100). Starts the built app the way `npm run serve` does, on
// a fresh data directory (the embedded sandbox seeds itself), and audits each page as a phone on a
// slow network would see it (Lighthouse's mobile defaults, simulated throttling). Works offline: the
// app and its sandbox are on this machine and no audit asked for needs the internet. Prints a table
// of scores and the audits that cost points, and exits with 1 when a target is missed.
// Each page is then loaded again on a phone throttled for real (Lighthouse's "devtools" throttling:
// the network slowed to 150 ms and 1.6 Mbps, the processor 4 times), for its largest contentful
// paint, against the target of at most 2.0 s (decision 030). The simulated runs estimate the same
// number from an unthrottled load, and count every script the page fetched before its first paint
// as blocking it, which module scripts never do (decision 030).
// LIGHTHOUSE_RUNS (default 3) runs each page that many times and keeps the median run, since one
// run's performance score moves by a few points.
import fs from "node:fs";
import { startBuiltApp } from "./built-app.mjs";
import { CHROMIUM_FLAGS } from "./chromium.mjs";
import { median } from "./median.mjs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 4490);
const BASE = `http://localhost:${PORT}`;
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const CLINIC = "austin-downtown";
/** The demo guest the embedded sandbox seeds (README), whose session the dashboard is audited with. */
const DEMO = { email: "demo@glowclinic.example", password: "Glow!Demo2026" };
/**
 * The pages audited: `page` is what the table shows; `path` is found once the app runs (the treatment
 * step's address holds the clinic's id); `signedIn` pages are audited with the demo guest's session.
 * `private` pages tell search engines not to index them (a booking step, the account): Lighthouse's
 * SEO score is shown for them but has no target, since its first check is that a page may be indexed.
 */
const PAGES = [
  { page: "/" },
  { page: "/locations" },
  { page: `/locations/${CLINIC}` },
  { page: `/memberships?clinic=${CLINIC}` },
  { page: "/terms" },
  { page: "/login" },
  { page: "treatment step", path: treatmentStepPath, private: true },
  { page: "/account", signedIn: true, private: true },
];
const TARGETS = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 };
/** The largest contentful paint on a throttled phone, at most (issue 32). */
const LCP_TARGET_MS = 2000;
const CATEGORIES = Object.keys(TARGETS);

const { server, dataDir, ready: waitForHealth } = startBuiltApp(PORT, "lighthouse");

/** The audits of a category that cost it points, as "title (display value)". */
function auditsMissed(lhr, category) {
  return lhr.categories[category].auditRefs
    .map((ref) => lhr.audits[ref.id])
    .filter(
      (audit) =>
        audit &&
        typeof audit.score === "number" &&
        audit.score < 1 &&
        ["binary", "numeric", "metricSavings"].includes(audit.scoreDisplayMode),
    )
    .map(
      (audit) =>
        `${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ""} [${audit.id}, score ${Math.round(audit.score * 100)}]`,
    );
}

/** The treatment step as the clinic page's "Book here" opens it: its form's action and hidden fields. */
async function treatmentStepPath() {
  const html = await (await fetch(`${BASE}/locations/${CLINIC}`)).text();
  const form = /<form[^>]*action="(\/appointment\/service)"[^>]*>(.*?)<\/form>/s.exec(html);
  if (!form) throw new Error(`no "Book here" form on /locations/${CLINIC}`);
  const fields = [...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
  return `${form[1]}?${new URLSearchParams(fields.map(([, name, value]) => [name, value]))}`;
}

/** The demo guest's session cookie, from signing in as the login form does. */
async function demoSessionCookie() {
  const answer = await fetch(`${BASE}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...DEMO, redirectTo: "/account" }),
  });
  const cookie = answer.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .find((pair) => pair.startsWith("__session="));
  if (answer.status !== 302 || !cookie) throw new Error(`signing in as the demo guest answered ${answer.status}`);
  return cookie;
}

/** "2.0 s" */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** RUNS Lighthouse runs of one page with these settings, each a report. */
async function audit(url, settings) {
  const lhrs = [];
  for (let run = 0, tries = 0; run < RUNS; tries++) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      disableFullPageScreenshot: true,
      ...settings,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const failure = result.lhr.runtimeError;
    // A trace Chromium failed to record (NO_NAVSTART and the like) says nothing of the page: try again, twice at most.
    if (failure && tries < RUNS + 2) continue;
    if (failure) throw new Error(`Lighthouse failed on ${url}: ${failure.code} ${failure.message}`);
    lhrs.push(result.lhr);
    run += 1;
  }
  return lhrs;
}

let chrome;
let missed = false;
try {
  await waitForHealth();
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
    logLevel: "error",
  });
  const rows = [];
  const session = await demoSessionCookie();
  for (const { page, path, signedIn, private: unindexed } of PAGES) {
    const url = `${BASE}${path ? await path() : page}`;
    // Lighthouse sends the header with every request of the page, whatever it does to the browser's storage.
    const extraHeaders = signedIn ? { Cookie: session } : undefined;
    // The first request renders the page into the render cache, as on a live server (decision 023).
    await (await fetch(url, { headers: extraHeaders })).arrayBuffer();
    const lhrs = await audit(url, { onlyCategories: CATEGORIES, extraHeaders });
    const phone = await audit(url, { onlyCategories: ["performance"], extraHeaders, throttlingMethod: "devtools" });
    const phoneLcp = median(phone.map((run) => run.audits["largest-contentful-paint"].numericValue));
    const lhr = RUNS > 1 ? computeMedianRun(lhrs) : lhrs[0];
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c].score ?? 0) * 100)]));
    const failed = CATEGORIES.filter((c) => scores[c] < TARGETS[c] && !(unindexed && c === "seo"));
    rows.push({ page, scores, failed, unindexed, lhr, phoneLcp, warnings: lhr.runWarnings });
    console.log(
      `${page}: ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join(", ")}, LCP on a throttled phone ${seconds(phoneLcp)}`,
    );
  }

  const width = Math.max(...PAGES.map(({ page }) => page.length), 4);
  const column = (text) => String(text).padStart(16);
  console.log(`\nLighthouse (mobile, simulated throttling, median of ${RUNS} ${RUNS === 1 ? "run" : "runs"})\n`);
  console.log(`${"page".padEnd(width)}${CATEGORIES.map(column).join("")}${column("LCP, phone")}`);
  console.log(
    `${"target".padEnd(width)}${CATEGORIES.map((c) => column(c === "performance" ? `>= ${TARGETS[c]}` : TARGETS[c])).join("")}${column(`<= ${seconds(LCP_TARGET_MS)}`)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.page.padEnd(width)}${CATEGORIES.map((c) => column(`${row.failed.includes(c) ? "✗ " : row.unindexed && c === "seo" ? "noindex " : ""}${row.scores[c]}`)).join("")}${column(`${row.phoneLcp > LCP_TARGET_MS ? "✗ " : ""}${seconds(row.phoneLcp)}`)}`,
    );
  }
  console.log(
    `\nLCP, phone: the largest contentful paint on a phone throttled for real (median of ${RUNS}); the simulated runs' own estimate is in each page's report.`,
  );
  for (const row of rows) {
    for (const category of row.failed) {
      missed = true;
      console.log(`\n${row.page}: ${category} ${row.scores[category]}, target ${TARGETS[category]}`);
      for (const line of auditsMissed(row.lhr, category)) console.log(`  - ${line}`);
    }
    if (row.phoneLcp > LCP_TARGET_MS) {
      missed = true;
      console.log(
        `\n${row.page}: largest contentful paint ${seconds(row.phoneLcp)} on a throttled phone, target ${seconds(LCP_TARGET_MS)}`,
      );
    }
    for (const warning of row.warnings ?? []) console.log(`\n${row.page}: warning: ${warning}`);
  }
  console.log(missed ? "\nSome targets were missed." : "\nEvery target is met.");
} catch (error) {
  console.error(error);
  missed = true;
} finally {
  await chrome?.kill();
  // The data directory goes once the app has closed its files.
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
// Lighthouse may leave timers behind: the run is over.
process.exit(missed ? 1 : 0);
