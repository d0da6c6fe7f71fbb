import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { errorReporter } from "#server/observability/error-reporter.server";
import { scrubUrl } from "~/lib/error-scrub";
import { NonceProvider } from "~/lib/nonce";

export const streamTimeout = 5_000;

/**
 * Unexpected errors of loaders, actions and rendering, reported once here (logged, and sent to
 * Sentry when it is configured; decision 027). A thrown answer (a redirect, a 404, a 503 page) is
 * not an error, and neither is a visitor who left mid-request. The path goes without its query,
 * which may carry personal data.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted || isRouteErrorResponse(error) || error instanceof Response) return;
  errorReporter().captureException(error, { where: "request", method: request.method, path: scrubUrl(new URL(request.url).pathname) });
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.nonce;
  // Crawlers, no-JavaScript readers and the render cache get the whole document at once.
  const waitForAll = loadContext.wholeDocument || isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell are handed to handleError by the router; later ones are reported here.
          if (shellRendered) errorReporter().captureException(error, { where: "render", path: scrubUrl(new URL(request.url).pathname) });
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}
