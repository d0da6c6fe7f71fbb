// The analytics collector thread against a busy instance (decision 026): the events of a busy
// instance, recorded in bursts at a fixed pace (BURSTS of BURST_EVENTS, one every BURST_GAP_MS), sent
// to a collector on this machine by the adapter on its own thread and, as the baseline measured in
// the same run, by the same batches on the request thread. It prints the share of the events each
// delivered, the events each dropped, and the CPU the request thread spent per thousand events, with
// the thread's figures as ratios of the baseline's. Figures only: the unit tests hold the behaviour
// (every event delivered, in order, nothing lost past the bounds), and this how well it keeps up.
//   tsx bench/collector-thread.ts    (the end of `npm run bench`)
// BENCH_COLLECTOR_ROUNDS sets the rounds of each (default 5; the median is kept).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import type { Analytics, AnalyticsEvent } from "../server/analytics/analytics.server";
import { createThreadedHttpAnalytics } from "../server/analytics/collector-thread.server";
import { createHttpAnalytics } from "../server/analytics/http-analytics.server";
import { median } from "../scripts/median.mjs";

// The adapters' drop lines are counted in the table instead.
process.env.LOG_LEVEL ??= "error";

const ROUNDS = Number(process.env.BENCH_COLLECTOR_ROUNDS ?? 5);
const BURSTS = 10;
const BURST_EVENTS = 200;
const BURST_GAP_MS = 20;
const EVENTS = BURSTS * BURST_EVENTS;
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

/** CPU time this process's main thread (the one that serves requests) has used, in milliseconds. */
function mainThreadCpuMs(): number {
  const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** A collector that answers every batch at once and counts its events. */
async function startCollector() {
  let events = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      events += (JSON.parse(body) as { batch: unknown[] }).batch.length;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/batch`,
    events: () => events,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const viewed = (index: number): AnalyticsEvent => ({
  name: "page_viewed",
  properties: { path: `/locations/${index}`, status: 200 },
  requestId: `req-${index}`,
});

/** One round: the bursts recorded at their pace, then a flush; what arrived, what was dropped, the request thread's CPU. */
async function round(make: (url: string) => Analytics) {
  const collector = await startCollector();
  const analytics = make(collector.url);
  await analytics.flush(); // started (the thread running), so that no figure holds its start
  const cpuBefore = mainThreadCpuMs();
  for (let burst = 0; burst < BURSTS; burst += 1) {
    for (let index = 0; index < BURST_EVENTS; index += 1) analytics.record(viewed(burst * BURST_EVENTS + index));
    await sleep(BURST_GAP_MS);
  }
  await analytics.flush();
  const cpu = mainThreadCpuMs() - cpuBefore;
  const { dropped } = analytics.stats();
  await analytics.close();
  await collector.close();
  return { delivered: collector.events() / EVENTS, dropped, cpuPerThousand: (cpu * 1000) / EVENTS };
}

const adapters = {
  thread: (url: string) => createThreadedHttpAnalytics({ url, includeContact: false }),
  baseline: (url: string) => createHttpAnalytics({ url, includeContact: false }),
};
const runs: Record<keyof typeof adapters, Awaited<ReturnType<typeof round>>[]> = { thread: [], baseline: [] };
for (let index = 0; index < ROUNDS; index += 1) {
  // In turns, so that a machine that slows for a while slows both.
  for (const which of index % 2 === 0 ? (["thread", "baseline"] as const) : (["baseline", "thread"] as const))
    runs[which].push(await round(adapters[which]));
}

const summary = (which: keyof typeof adapters) => ({
  delivered: median(runs[which].map((run) => run.delivered)),
  dropped: median(runs[which].map((run) => run.dropped)),
  cpuPerThousand: median(runs[which].map((run) => run.cpuPerThousand)),
});
const [thread, baseline] = [summary("thread"), summary("baseline")];
console.log(
  `\nAnalytics at a busy instance's pace: ${EVENTS} events in ${BURSTS} bursts, one every ${BURST_GAP_MS} ms, to a collector on this machine; medians of ${ROUNDS} rounds on ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} (target: the thread delivers all, and costs the request thread less than the baseline):`,
);
console.table([
  {
    adapter: "on its own thread",
    delivered: fmt(thread.delivered, 3),
    dropped: thread.dropped,
    "request thread ms / 1000 events": fmt(thread.cpuPerThousand, 1),
    "delivered x baseline": fmt(thread.delivered / baseline.delivered, 2),
    "request thread x baseline": fmt(thread.cpuPerThousand / baseline.cpuPerThousand, 2),
  },
  {
    adapter: "baseline: on the request thread",
    delivered: fmt(baseline.delivered, 3),
    dropped: baseline.dropped,
    "request thread ms / 1000 events": fmt(baseline.cpuPerThousand, 1),
    "delivered x baseline": "1.00",
    "request thread x baseline": "1.00",
  },
]);
