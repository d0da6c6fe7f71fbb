import { logger } from "../observability/logger.server";

/**
 * One piece of background work a feature does again and again (docs/decisions/048): finishing
 * what a dead request left, asking the back end about records still open. The feature builds it
 * from its own folder with the services bound; the runner knows only this shape.
 */
export type PeriodicPass = {
  /** Says what the pass does in its log lines ("payment reconciliation" logs "payment reconciliation failed"). */
  name: string;
  /** From the start of one run to the start of the next. */
  everyMs: number;
  run(): Promise<unknown>;
};

export type PeriodicPasses = {
  /** No pass starts again; a run already under way finishes on its own. */
  stop(): void;
};

/**
 * Runs each pass at once and then every `everyMs`, each on its own: a pass that fails is logged
 * and runs again at its next turn, and never keeps another from running; a pass still running at
 * its next turn is not started a second time (that turn is skipped). This is about one process:
 * passes that several instances run at once stay safe through the leases and the per-record
 * checks of the stores they work on, as each pass's own code says.
 */
export function startPeriodicPasses(passes: readonly PeriodicPass[]): PeriodicPasses {
  let stopped = false;
  const timers = passes.map((pass) => {
    let running = false;
    const turn = () => {
      if (stopped) return;
      if (running) {
        logger.warn("periodic pass still running, this turn skipped", { pass: pass.name });
        return;
      }
      running = true;
      // A pass that throws before its first await is a failure like any other.
      void Promise.resolve()
        .then(() => pass.run())
        .catch((error: unknown) =>
          logger.error(`${pass.name} failed`, { error: error instanceof Error ? error.message : String(error) }),
        )
        .finally(() => {
          running = false;
        });
    };
    turn();
    const timer = setInterval(turn, pass.everyMs);
    // The timer alone never keeps the process alive.
    timer.unref();
    return timer;
  });
  return {
    stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
    },
  };
}
