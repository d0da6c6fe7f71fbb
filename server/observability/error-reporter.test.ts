import * as Sentry from "@sentry/react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseEnv } from "../env.server";
import { createErrorReporter } from "../compose.server";
import {
  browserErrorReporting,
  createLogReporter,
  setErrorReporter,
  type ErrorReporter,
} from "./error-reporter.server";

/** One item of a Sentry envelope: its type and its JSON payload. */
type Item = { type: string; payload: Record<string, any> };

/** Envelopes as the SDK serialises them: a header line, then a header line and a payload line per item. */
function itemsOf(body: string | Uint8Array): Item[] {
  const lines = (typeof body === "string" ? body : new TextDecoder().decode(body)).split("\n").filter(Boolean);
  const items: Item[] = [];
  for (let i = 1; i + 1 < lines.length; i += 2)
    items.push({ type: JSON.parse(lines[i]).type, payload: JSON.parse(lines[i + 1]) });
  return items;
}

/** A transport that keeps every envelope in memory: nothing goes over the network. */
function memoryTransport() {
  const items: Item[] = [];
  const transport: NonNullable<Parameters<typeof createErrorReporter>[1]>["transport"] = (options) =>
    Sentry.createTransport(options, async (request) => {
      items.push(...itemsOf(request.body));
      return { statusCode: 200 };
    });
  return { transport, items, events: () => items.filter((item) => item.type === "event").map((item) => item.payload) };
}

function captureLog() {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(JSON.parse(String(chunk)));
    return true;
  });
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the log reporter (no DSN)", () => {
  it("is what an environment without SENTRY_DSN gets", async () => {
    expect((await createErrorReporter(parseEnv({ NODE_ENV: "test" }))).kind).toBe("log");
  });

  it("logs an error once, with where it happened, however often it is reported", () => {
    const log = captureLog();
    const reporter = createLogReporter();
    const error = new Error("store down for ana@example.com");
    reporter.captureException(error, { where: "promo-count" });
    reporter.captureException(error, { where: "request" });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ level: "error", message: "unexpected error", where: "promo-count" });
    expect(String(log[0].error)).toContain("store down for [email]");
  });
});

describe("the Sentry reporter", () => {
  const sent = memoryTransport();
  let reporter: ErrorReporter;

  beforeAll(async () => {
    const env = parseEnv({
      NODE_ENV: "test",
      SENTRY_DSN: "https://public@errors.example/1",
      SENTRY_ENVIRONMENT: "staging",
      SENTRY_TRACES_SAMPLE_RATE: "1",
    });
    reporter = await createErrorReporter(env, { transport: sent.transport });
  });

  it("sends a captured server error as an event, with its place as a tag and nothing personal", async () => {
    captureLog();
    reporter.captureException(new Error("could not count GLOW50 for ana@example.com at 512-555-0141"), {
      where: "promo-count",
    });
    expect(await reporter.flush(2_000)).toBe(true);
    const event = sent.events().find((e) => e.tags?.where === "promo-count");
    expect(event).toBeDefined();
    expect(event).toMatchObject({ environment: "staging", level: "error" });
    expect(event!.exception.values[0].value).toBe("could not count GLOW50 for [email] at [phone]");
    expect(event!.user).toBeUndefined();
    expect(reporter.kind).toBe("sentry");
  });

  it("sends an error once even when a second layer reports it again", async () => {
    captureLog();
    const error = new Error("reported twice");
    reporter.captureException(error, { where: "promo-count" });
    reporter.captureException(error, { where: "request" });
    await reporter.flush(2_000);
    expect(sent.events().filter((e) => e.exception?.values[0].value === "reported twice")).toHaveLength(1);
  });

  it("drops the transaction of /404 and of the catch-all route, and keeps another", async () => {
    Sentry.startSpan({ name: "GET /404", op: "http.server" }, () => {});
    Sentry.startSpan({ name: "GET *", op: "http.server" }, () => {});
    Sentry.startSpan({ name: "GET /locations", op: "http.server" }, () => {});
    await reporter.flush(2_000);
    const transactions = sent.items
      .filter((item) => item.type === "transaction")
      .map((item) => item.payload.transaction);
    expect(transactions).toContain("GET /locations");
    expect(transactions).not.toContain("GET /404");
    expect(transactions).not.toContain("GET *");
  });
});

describe("what the browser is told", () => {
  it("is nothing without a DSN, and with one only the DSN, the environment and the sample rate", () => {
    expect(browserErrorReporting(parseEnv({ NODE_ENV: "test" }))).toBeNull();
    const env = parseEnv({
      NODE_ENV: "production",
      SENTRY_DSN: "https://public@errors.example/1",
      SENTRY_TRACES_SAMPLE_RATE: "0.2",
      SESSION_SECRETS: "x".repeat(32),
    });
    expect(browserErrorReporting(env)).toEqual({
      dsn: "https://public@errors.example/1",
      environment: "production",
      tracesSampleRate: 0.2,
    });
  });
});

describe("the process's reporter", () => {
  it("can be replaced, and the replaced one is given back", () => {
    const fake: ErrorReporter = { kind: "log", captureException() {}, captureMessage() {}, flush: async () => true };
    const previous = setErrorReporter(fake);
    expect(setErrorReporter(previous)).toBe(fake);
  });
});
