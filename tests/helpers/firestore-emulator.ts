// A Firestore emulator for the Firestore adapter's tests: the one FIRESTORE_EMULATOR_HOST names,
// or else the Google Cloud CLI's Cloud Firestore emulator (it needs Java), started on a free port
// of this machine. No npm package emulates Firestore well enough for the store contract
// (docs/decisions/012).
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { freePort } from "./free-port";

export type FirestoreEmulator = { host: string; stop(): Promise<void> };

const START_TIMEOUT_MS = 60_000;

/**
 * The emulator's JVM compiles with its quick compiler only and collects on one thread: the tests
 * run for under a minute, and its optimising compiler otherwise spends about 10 s of processor time
 * (half of the emulator's) while the unit tests share the machine's cores with it.
 */
function javaOptions(): string {
  return [process.env.JAVA_TOOL_OPTIONS, "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"].filter(Boolean).join(" ");
}

/** The emulator, or why there is none. */
export async function startFirestoreEmulator(): Promise<FirestoreEmulator | { unavailable: string }> {
  const configured = process.env.FIRESTORE_EMULATOR_HOST;
  if (configured) return { host: configured, stop: async () => {} };

  const port = await freePort();
  const child = spawn("gcloud", ["emulators", "firestore", "start", `--host-port=127.0.0.1:${port}`, "--quiet"], {
    // Its own process group, so stopping it also stops the Java process it starts.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CLOUDSDK_CORE_DISABLE_PROMPTS: "1", JAVA_TOOL_OPTIONS: javaOptions() },
  });
  const stop = async () => {
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  };
  let output = "";
  const started = await new Promise<true | string>((resolve) => {
    const timer = setTimeout(() => resolve(`it did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    const settle = (result: true | string) => {
      clearTimeout(timer);
      resolve(result);
    };
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Dev App Server is now running")) settle(true);
    };
    child.stdout.on("data", watch);
    child.stderr.on("data", watch);
    child.once("error", (error) => settle(`gcloud could not be run (${error.message})`));
    child.once("exit", (code) =>
      settle(`gcloud emulators firestore start exited with ${code}: ${output.trim().split("\n").slice(-3).join(" ")}`),
    );
  });
  if (started !== true) {
    await stop().catch(() => undefined);
    return { unavailable: started };
  }
  child.stdout.removeAllListeners("data");
  child.stderr.removeAllListeners("data");
  child.stdout.resume();
  child.stderr.resume();
  return { host: `127.0.0.1:${port}`, stop };
}

/**
 * Service-account credentials of the shape the Firestore adapter is configured with. The emulator
 * does not check them, so a key made here will do.
 */
export function emulatorCredentialsJson(projectId: string): string {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  return JSON.stringify({
    type: "service_account",
    project_id: projectId,
    client_email: `store-tests@${projectId}.iam.gserviceaccount.com`,
    private_key: privateKey,
  });
}
