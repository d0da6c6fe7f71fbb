// Run before the browser tests (npm test, npm run test:e2e): they use Debian's Chromium at
// /usr/bin/chromium, or the one CHROMIUM_PATH names. When it is missing, it is installed with apt-get
// if this runs as root on a machine that has apt-get; otherwise the tests stop here, at once, with the
// one command to run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function hasAptGet() {
  return spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
}

function stop(message) {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

if (!isExecutable(chromium)) {
  if (process.env.CHROMIUM_PATH) {
    stop(`CHROMIUM_PATH is set to ${chromium}, which is not an executable file. Point it at Chromium, or unset it to use /usr/bin/chromium.`);
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !hasAptGet()) {
    stop(
      "The browser tests need Chromium at /usr/bin/chromium. Install it with:\n\n" +
        "    sudo apt-get update && sudo apt-get install -y chromium\n\n" +
        "(or set CHROMIUM_PATH to a Chromium or Chrome executable), then run the tests again.",
    );
  }
  process.stdout.write("Chromium is missing: installing Debian's chromium package (apt-get)...\n");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "chromium"]]) {
    const result = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (result.status !== 0) stop(`apt-get ${args.join(" ")} failed. Install Chromium with: apt-get update && apt-get install -y chromium`);
  }
  if (!isExecutable(chromium)) stop(`apt-get installed chromium, but ${chromium} is still missing.`);
}
