// Run before the tests (npm test, npm run test:unit, npm run test:e2e). They need two programs from
// Debian: headless Chromium for the browser tests (/usr/bin/chromium-headless-shell, or the one
// CHROMIUM_PATH names) and
// redis-server for the shared counters (/usr/bin/redis-server, or REDIS_SERVER_PATH). When one is
// missing, it is installed with apt-get if this runs as root on a machine that has apt-get;
// otherwise the tests stop here, at once, with the one command to run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const tools = [
  {
    name: "headless Chromium",
    pkg: "chromium-headless-shell",
    file: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
    setting: "CHROMIUM_PATH",
    wanted: process.argv.includes("--browser") || !process.argv.includes("--redis"),
  },
  {
    name: "redis-server",
    pkg: "redis-server",
    file: process.env.REDIS_SERVER_PATH ?? "/usr/bin/redis-server",
    setting: "REDIS_SERVER_PATH",
    wanted: true,
  },
];

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

const missing = tools.filter((tool) => tool.wanted && !isExecutable(tool.file));
for (const tool of missing) {
  if (process.env[tool.setting])
    stop(
      `${tool.setting} is set to ${tool.file}, which is not an executable file. Point it at ${tool.name}, or unset it.`,
    );
}
if (missing.length > 0) {
  const packages = missing.map((tool) => tool.pkg);
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !hasAptGet()) {
    stop(
      `The tests need ${missing.map((tool) => `${tool.name} at ${tool.file}`).join(" and ")}. Install with:\n\n` +
        `    sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}\n\n` +
        `(or set ${missing.map((tool) => tool.setting).join(" / ")}), then run the tests again.`,
    );
  }
  process.stdout.write(`Missing: installing Debian's ${packages.join(" and ")} (apt-get)...\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", ...packages]]) {
    const result = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (result.status !== 0)
      stop(
        `apt-get ${args.join(" ")} failed. Install them with: apt-get update && apt-get install -y ${packages.join(" ")}`,
      );
  }
  for (const tool of missing)
    if (!isExecutable(tool.file)) stop(`apt-get installed ${tool.pkg}, but ${tool.file} is still missing.`);
}
