import { afterEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "../env.server";

/** Sentry's SDK stands in for itself here, so that loading it at all is seen. */
const loaded = vi.fn();

afterEach(() => {
  vi.doUnmock("@sentry/react-router");
  vi.resetModules();
  loaded.mockClear();
});

async function reporterFor(source: Record<string, string>) {
  vi.resetModules();
  vi.doMock("@sentry/react-router", () => {
    loaded();
    return { init: vi.fn(), captureException: vi.fn(), captureMessage: vi.fn(), flush: vi.fn(async () => true) };
  });
  const { createErrorReporter } = await import("../compose.server");
  return createErrorReporter(parseEnv({ NODE_ENV: "test", ...source }));
}

describe("error reporting without a DSN", () => {
  it("is the log reporter, and Sentry's SDK is never loaded", async () => {
    const reporter = await reporterFor({});
    expect(reporter.kind).toBe("log");
    expect(loaded).not.toHaveBeenCalled();
  });

  it("loads Sentry's SDK once a DSN is set (the check above can see a load)", async () => {
    const reporter = await reporterFor({ SENTRY_DSN: "https://public@errors.example/1" });
    expect(reporter.kind).toBe("sentry");
    expect(loaded).toHaveBeenCalled();
  });
});
