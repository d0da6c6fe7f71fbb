import { type LoaderFunctionArgs, RouterContextProvider, UNSAFE_ErrorResponseImpl } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setErrorReporter, type ErrorReporter, type ReportContext } from "#server/observability/error-reporter.server";
import { handleError } from "./entry.server";

let reports: { error: unknown; context?: ReportContext }[];
let previous: ErrorReporter;

beforeEach(() => {
  reports = [];
  previous = setErrorReporter({
    kind: "log",
    captureException: (error, context) => reports.push({ error, context }),
    captureMessage() {},
    flush: async () => true,
  });
});
afterEach(() => {
  setErrorReporter(previous);
});

function argsFor(request: Request): LoaderFunctionArgs {
  return { request, params: {}, context: new RouterContextProvider(), unstable_pattern: "/" } as unknown as LoaderFunctionArgs;
}

describe("handleError", () => {
  it("reports an unexpected error once, with the path but not the query", () => {
    const error = new Error("store down");
    handleError(error, argsFor(new Request("https://shop.example/appointment/payment?email=ana%40example.com", { method: "POST" })));
    expect(reports).toEqual([{ error, context: { where: "request", method: "POST", path: "/appointment/payment" } }]);
  });

  it("reports nothing for a thrown answer or a visitor who left", () => {
    // The router hands a thrown `data(..., { status: 404 })` over as an error response.
    handleError(new UNSAFE_ErrorResponseImpl(404, "Not Found", "Not found"), argsFor(new Request("https://shop.example/locations/nowhere")));
    handleError(new Response(null, { status: 302, headers: { location: "/" } }), argsFor(new Request("https://shop.example/account")));
    const left = new AbortController();
    left.abort();
    handleError(new Error("aborted"), argsFor(new Request("https://shop.example/locations", { signal: left.signal })));
    expect(reports).toEqual([]);
  });
});
