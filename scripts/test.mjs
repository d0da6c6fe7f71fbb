// `npm test`: every check the project has, in the order that finishes soonest on a two-core machine
// (decision 065).
//  1. The test tools (headless Chromium, redis-server), installed when missing.
//  2. The unit tests, and beside them Biome's check, the type check and then the build. The unit
//     tests leave about a third of the processor idle (the Firestore contract's races wait out the
//     client's backoff), which the other lane fills; it still ends first. Biome's check takes
//     seconds and is the commonest failure, so it opens its lane: a formatting slip stops the run at
//     once. The unit tests' output is shown as it comes; the other lane's is shown when it ends, so
//     the two never interleave.
//  3. The browser tests, on the build from step 2 (`npm test -- --no-browser` stops before them).
// The first lane to fail stops the other and the run, with its output and its exit status.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

/** Runs a command to its end with the terminal's output; stops the run if it fails. */
function runInline(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * Starts a lane: commands run one after another. With `quiet`, their output is kept and given back
 * when the lane ends. Resolves with the failing command's status, or 0.
 */
function lane(name, steps, { quiet }) {
  const output = [];
  const started = Date.now();
  let seconds = 0;
  let current = null;
  let stopped = false;
  const done = (async () => {
    for (const [command, args] of steps) {
      if (stopped) return 1;
      const status = await new Promise((resolve) => {
        // A process group of its own, so that stopping the lane stops what its command started too
        // (Vitest's workers, the build's children).
        current = spawn(command, args, {
          cwd: root,
          detached: true,
          stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
        });
        if (quiet) {
          current.stdout.on("data", (chunk) => output.push(chunk));
          current.stderr.on("data", (chunk) => output.push(chunk));
        }
        current.on("error", (error) => {
          output.push(Buffer.from(`${name}: could not start ${command}: ${error.message}\n`));
          resolve(1);
        });
        current.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      });
      current = null;
      if (status !== 0) return status;
    }
    return 0;
  })().finally(() => {
    seconds = Math.round((Date.now() - started) / 1000);
  });
  return {
    name,
    done,
    output: () => Buffer.concat(output).toString(),
    seconds: () => seconds,
    stop() {
      stopped = true;
      if (current?.pid === undefined) return;
      try {
        process.kill(-current.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    },
  };
}

runInline(process.execPath, [path.join(root, "scripts", "ensure-test-tools.mjs")]);

const lanes = [
  lane("unit tests", [[bin("vitest"), ["run"]]], { quiet: false }),
  lane(
    "lint, type check and build",
    [
      [bin("biome"), ["ci", "."]],
      [bin("react-router"), ["typegen"]],
      [bin("tsc"), []],
      ["npm", ["run", "-s", "build"]],
    ],
    { quiet: true },
  ),
];

// The lanes are not in the terminal's process group: an interrupt reaches them through this script.
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    for (const each of lanes) each.stop();
    process.exit(130);
  });

let firstFailure = null;
const results = await Promise.all(
  lanes.map(async (each) => {
    const status = await each.done;
    if (status !== 0 && !firstFailure) {
      firstFailure = { lane: each, status };
      for (const other of lanes) if (other !== each) other.stop();
    }
    return { lane: each, status };
  }),
);
for (const { lane: each } of results) {
  const text = each.output();
  if (text) process.stdout.write(`\n── ${each.name} ──\n${text}`);
}
for (const { lane: each, status } of results)
  process.stdout.write(
    `${each.name}: ${status === 0 ? "passed" : each === firstFailure?.lane ? "failed" : "stopped"} after ${each.seconds()} s\n`,
  );
if (firstFailure) {
  process.stderr.write(`\n${firstFailure.lane.name} failed (exit ${firstFailure.status}).\n`);
  process.exit(firstFailure.status);
}

if (!process.argv.includes("--no-browser")) runInline(bin("playwright"), ["test"]);
