import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { observeLogs } from "../observability/logger.server";
import { startPeriodicPasses, type PeriodicPass, type PeriodicPasses } from "./periodic-passes.server";

const EVERY_MS = 60_000;

/** A pass that counts its runs; each run ends when the test says so, or at once. */
function countingPass(name: string, options: { everyMs?: number; holds?: boolean; fails?: "throws" | "rejects" } = {}) {
  const pending: (() => void)[] = [];
  const pass = {
    runs: 0,
    name,
    everyMs: options.everyMs ?? EVERY_MS,
    run(): Promise<unknown> {
      pass.runs += 1;
      if (options.fails === "throws") throw new Error(`${name} broke`);
      if (options.fails === "rejects") return Promise.reject(new Error(`${name} broke`));
      if (!options.holds) return Promise.resolve(0);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
    /** Ends the run under way. */
    finish: () => pending.shift()?.(),
  };
  return pass satisfies PeriodicPass;
}

describe("startPeriodicPasses", () => {
  let lines: { level: string; message: string; fields: Record<string, unknown> }[];
  let stopObserving: () => void;
  let runner: PeriodicPasses | undefined;
  const logLevel = process.env.LOG_LEVEL;

  beforeEach(() => {
    vi.useFakeTimers();
    lines = [];
    // The lines are read here, not printed.
    process.env.LOG_LEVEL = "off";
    stopObserving = observeLogs((level, message, fields) => lines.push({ level, message, fields }));
  });

  afterEach(() => {
    runner?.stop();
    runner = undefined;
    stopObserving();
    if (logLevel === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = logLevel;
    vi.useRealTimers();
  });

  it("runs every pass at start, then each at its own interval", async () => {
    const minute = countingPass("minute");
    const hour = countingPass("hour", { everyMs: 60 * EVERY_MS });
    runner = startPeriodicPasses([minute, hour]);
    await vi.advanceTimersByTimeAsync(0);
    expect([minute.runs, hour.runs]).toEqual([1, 1]);

    await vi.advanceTimersByTimeAsync(EVERY_MS - 1);
    expect([minute.runs, hour.runs]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(1);
    expect([minute.runs, hour.runs]).toEqual([2, 1]);

    await vi.advanceTimersByTimeAsync(59 * EVERY_MS);
    expect([minute.runs, hour.runs]).toEqual([61, 2]);
    expect(lines).toEqual([]);
  });

  it("logs a pass that throws or rejects under its name; the passes after it still run, and it runs again at its next turn", async () => {
    const throws = countingPass("payment reconciliation", { fails: "throws" });
    const rejects = countingPass("purchase reconciliation", { fails: "rejects" });
    const after = countingPass("referral reconciliation");
    runner = startPeriodicPasses([throws, rejects, after]);
    await vi.advanceTimersByTimeAsync(0);
    expect([throws.runs, rejects.runs, after.runs]).toEqual([1, 1, 1]);
    expect(lines).toEqual([
      { level: "error", message: "payment reconciliation failed", fields: { error: "payment reconciliation broke" } },
      { level: "error", message: "purchase reconciliation failed", fields: { error: "purchase reconciliation broke" } },
    ]);

    await vi.advanceTimersByTimeAsync(EVERY_MS);
    expect([throws.runs, rejects.runs, after.runs]).toEqual([2, 2, 2]);
    expect(lines.filter((line) => line.level === "error")).toHaveLength(4);
  });

  it("does not start a pass again while its run is under way; the other passes keep their turns", async () => {
    const slow = countingPass("slow", { holds: true });
    const quick = countingPass("quick");
    runner = startPeriodicPasses([slow, quick]);
    await vi.advanceTimersByTimeAsync(0);
    expect([slow.runs, quick.runs]).toEqual([1, 1]);

    await vi.advanceTimersByTimeAsync(3 * EVERY_MS);
    expect([slow.runs, quick.runs]).toEqual([1, 4]);
    expect(lines).toEqual(
      Array(3).fill({
        level: "warn",
        message: "periodic pass still running, this turn skipped",
        fields: { pass: "slow" },
      }),
    );

    // Once it ends, its next turn starts it again (not at once: the timing stays the same).
    slow.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(slow.runs).toBe(1);
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    expect([slow.runs, quick.runs]).toEqual([2, 5]);
  });

  it("stops: no pass starts again, and a run under way ends on its own without a complaint", async () => {
    const slow = countingPass("slow", { holds: true });
    const quick = countingPass("quick");
    runner = startPeriodicPasses([slow, quick]);
    await vi.advanceTimersByTimeAsync(EVERY_MS);
    expect([slow.runs, quick.runs]).toEqual([1, 2]);

    runner.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10 * EVERY_MS);
    slow.finish();
    await vi.advanceTimersByTimeAsync(10 * EVERY_MS);
    expect([slow.runs, quick.runs]).toEqual([1, 2]);
    expect(lines.filter((line) => line.level === "error")).toEqual([]);
  });
});

describe("the seams of the periodic passes", () => {
  const root = path.resolve(import.meta.dirname, "..");
  const importsOf = (file: string) =>
    [...fs.readFileSync(path.join(root, file), "utf8").matchAll(/from "([^"]+)"/g)].map((match) => match[1]);

  it("the runner imports no feature: it runs the passes it is given", () => {
    const sources = fs
      .readdirSync(path.join(root, "jobs"))
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
    expect(sources.flatMap((name) => importsOf(`jobs/${name}`))).toEqual(["../observability/logger.server"]);
  });

  it("booking's pass reaches neither purchases nor referrals", () => {
    expect(importsOf("booking/reconcile.server.ts").filter((source) => /purchases|referrals/.test(source))).toEqual([]);
  });
});
