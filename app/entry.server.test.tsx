import {
  createRequestHandler,
  Outlet,
  RouterContextProvider,
  Scripts,
  UNSAFE_ErrorResponseImpl,
  useLoaderData,
  type LoaderFunctionArgs,
  type ServerBuild,
} from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setErrorReporter, type ErrorReporter, type ReportContext } from "#server/observability/error-reporter.server";
import { createRenderMemo, type RenderMemo } from "#server/render-memo.server";
import * as entry from "./entry.server";
import { handleError } from "./entry.server";
import { useNonce } from "./lib/nonce";

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
  return {
    request,
    params: {},
    context: new RouterContextProvider(),
    unstable_pattern: "/",
  } as unknown as LoaderFunctionArgs;
}

describe("handleError", () => {
  it("reports an unexpected error once, with the path but not the query", () => {
    const error = new Error("store down");
    handleError(
      error,
      argsFor(new Request("https://shop.example/appointment/payment?email=ana%40example.com", { method: "POST" })),
    );
    expect(reports).toEqual([{ error, context: { where: "request", method: "POST", path: "/appointment/payment" } }]);
  });

  it("reports nothing for a thrown answer or a visitor who left", () => {
    // The router hands a thrown `data(..., { status: 404 })` over as an error response.
    handleError(
      new UNSAFE_ErrorResponseImpl(404, "Not Found", "Not found"),
      argsFor(new Request("https://shop.example/locations/nowhere")),
    );
    handleError(
      new Response(null, { status: 302, headers: { location: "/" } }),
      argsFor(new Request("https://shop.example/account")),
    );
    const left = new AbortController();
    left.abort();
    handleError(new Error("aborted"), argsFor(new Request("https://shop.example/locations", { signal: left.signal })));
    expect(reports).toEqual([]);
  });
});

/**
 * The server entry driven through React Router with a small build of its own: a root, a page that
 * opted in to the render memo and one that did not, each counting its renders and showing data the
 * test sets (decision 034).
 */
function appWith({ impure = false } = {}) {
  const state = { shown: "10:00 AM", renders: { kept: 0, plain: 0 } };
  let impureCount = 0;
  const manifestRoute = (id: string, parentId: string | undefined, path: string) => ({
    id,
    parentId,
    path,
    index: undefined,
    caseSensitive: undefined,
    hasAction: false,
    hasLoader: true,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasDefaultExport: true,
    hasErrorBoundary: false,
    module: `/${id}.js`,
    imports: [],
    css: [],
  });
  const root = {
    loader: () => ({ year: 2026 }),
    // As the app's root has: an error is a page, not the router's console message.
    ErrorBoundary: () => (
      <html lang="en">
        <body>
          <p>Something went wrong</p>
        </body>
      </html>
    ),
    default: function Root() {
      const nonce = useNonce();
      return (
        <html lang="en">
          <head>
            <title>test</title>
          </head>
          <body>
            <Outlet />
            <Scripts nonce={nonce} />
          </body>
        </html>
      );
    },
  };
  const kept = {
    handle: { renderMemo: true },
    loader: () => ({ shown: state.shown }),
    default: function Kept() {
      const { shown } = useLoaderData() as { shown: string };
      state.renders.kept++;
      return (
        <p>
          {`Open at ${shown}`}
          {impure ? <span>{` render ${++impureCount}`}</span> : null}
        </p>
      );
    },
  };
  const plain = {
    loader: () => ({ shown: state.shown }),
    default: function Plain() {
      const { shown } = useLoaderData() as { shown: string };
      state.renders.plain++;
      return <p>{`Plain at ${shown}`}</p>;
    },
  };
  const build = {
    entry: { module: entry },
    routes: {
      root: { id: "root", parentId: undefined, path: "", index: undefined, caseSensitive: undefined, module: root },
      kept: { id: "kept", parentId: "root", path: "kept", index: undefined, caseSensitive: undefined, module: kept },
      plain: {
        id: "plain",
        parentId: "root",
        path: "plain",
        index: undefined,
        caseSensitive: undefined,
        module: plain,
      },
    },
    assets: {
      entry: { module: "/entry.client.js", imports: [] },
      routes: {
        root: { ...manifestRoute("root", undefined, ""), hasErrorBoundary: true },
        kept: manifestRoute("kept", "root", "kept"),
        plain: manifestRoute("plain", "root", "plain"),
      },
      url: "/manifest.js",
      version: "1",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    basename: "/",
    future: { v8_middleware: true },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    allowedActionOrigins: false,
  } as unknown as ServerBuild;
  const handle = createRequestHandler(build, "production");
  let requests = 0;
  return {
    state,
    async get(path: string, memo: RenderMemo | undefined, method = "GET") {
      const nonce = `nonce-${++requests}-${Math.random().toString(36).slice(2)}`;
      const context = Object.assign(new RouterContextProvider(), { nonce, renderMemo: memo });
      const response = await handle(new Request(`http://shop.example${path}`, { method }), context);
      return { status: response.status, html: await response.text(), nonce };
    },
  };
}

const newMemo = (verify = false) => createRenderMemo({ maxBytes: 1024 * 1024, ttlMs: 60_000, verify });

describe("the server entry with the render memo", () => {
  it("renders an opted-in page once for the same data and serves it again with each request's nonce", async () => {
    const app = appWith();
    const memo = newMemo();
    const first = await app.get("/kept", memo);
    const second = await app.get("/kept", memo);
    expect(app.state.renders.kept).toBe(1);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.html).toContain("Open at 10:00 AM");
    expect(first.html).toContain(`nonce="${first.nonce}"`);
    expect(second.html).toContain(`nonce="${second.nonce}"`);
    expect(second.html).not.toContain(first.nonce);
    expect(second.html).toBe(first.html.replaceAll(first.nonce, second.nonce));
    expect(memo.stats()).toMatchObject({ pages: 1, hits: 1, misses: 1 });
  });

  it("renders again when the data differs, and keeps both pages", async () => {
    const app = appWith();
    const memo = newMemo();
    await app.get("/kept", memo);
    app.state.shown = "11:00 AM";
    const other = await app.get("/kept", memo);
    expect(app.state.renders.kept).toBe(2);
    expect(other.html).toContain("Open at 11:00 AM");
    app.state.shown = "10:00 AM";
    expect((await app.get("/kept", memo)).html).toContain("Open at 10:00 AM");
    expect(app.state.renders.kept).toBe(2);
    expect((await app.get("/kept?date=2026-12-08", memo)).html).toContain("Open at 10:00 AM");
    expect(app.state.renders.kept).toBe(3);
  });

  it("renders every time a page that did not opt in, a HEAD, or anything without the memo", async () => {
    const app = appWith();
    const memo = newMemo();
    await app.get("/plain", memo);
    await app.get("/plain", memo);
    expect(app.state.renders.plain).toBe(2);
    await app.get("/kept", memo, "HEAD");
    await app.get("/kept", undefined);
    await app.get("/kept", memo);
    expect(app.state.renders.kept).toBe(3);
    expect(memo.stats().pages).toBe(1);
  });

  it("in verify mode renders a kept page again, answers it when it is the same, and refuses a page that reads more than its data", async () => {
    const pure = appWith();
    const memo = newMemo(true);
    await pure.get("/kept", memo);
    const again = await pure.get("/kept", memo);
    expect(again.status).toBe(200);
    expect(again.html).toContain(`nonce="${again.nonce}"`);
    expect(pure.state.renders.kept).toBe(2);
    expect(memo.stats().mismatches).toBe(0);

    const impure = appWith({ impure: true });
    const checked = newMemo(true);
    expect((await impure.get("/kept", checked)).status).toBe(200);
    const refused = await impure.get("/kept", checked);
    expect(refused.status).toBe(500);
    expect(refused.html).toContain("Something went wrong");
    expect(refused.html).not.toContain("render 2");
    expect(checked.stats().mismatches).toBe(1);
    expect(reports.map(({ error }) => String(error))).toEqual([
      "Error: render memo: the page kept for /kept differs from a new render of the same data",
    ]);
  });
});
