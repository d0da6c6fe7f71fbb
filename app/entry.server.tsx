import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { errorReporter } from "#server/observability/error-reporter.server";
import { renderMemoKey } from "#server/render-memo.server";
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
  errorReporter().captureException(error, {
    where: "request",
    method: request.method,
    path: scrubUrl(new URL(request.url).pathname),
  });
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
  const waitForAll = Boolean(
    loadContext.wholeDocument || isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode,
  );
  const memo = loadContext.renderMemo;
  const key = memo ? renderMemoKey(request, responseStatusCode, routerContext, waitForAll) : null;
  if (!memo || !key) return render(request, responseStatusCode, responseHeaders, routerContext, nonce, waitForAll);
  const kept = memo.get(key, nonce);
  if (kept && !memo.verify) {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    return new Response(kept, { headers: responseHeaders, status: responseStatusCode });
  }
  return render(request, responseStatusCode, responseHeaders, routerContext, nonce, waitForAll, {
    rendered(html) {
      if (!kept) return memo.keep(key, html, nonce);
      if (kept.equals(html)) return;
      memo.countMismatch();
      throw new Error(
        `render memo: the page kept for ${scrubUrl(new URL(request.url).pathname)} differs from a new render of the same data`,
      );
    },
    // Verifying a kept page needs the new one whole before answering.
    whole: Boolean(kept),
  });
}

type Keep = {
  /** Called with the page once it rendered to its end without an error (and, with `whole`, before it is sent). */
  rendered: (html: Buffer) => void;
  whole: boolean;
};

function render(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  nonce: string,
  waitForAll: boolean,
  keep?: Keep,
) {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
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
          // Streamed as it renders, unless a kept page is being verified: then sent whole, once compared.
          if (!keep?.whole)
            resolve(
              new Response(createReadableStreamFromReadable(body), {
                headers: responseHeaders,
                status: responseStatusCode,
              }),
            );
          if (keep) {
            // A copy of what goes out; a page that failed, or whose visitor left, is not kept.
            const chunks: Buffer[] = [];
            body.on("data", (chunk: Buffer) => chunks.push(chunk));
            if (keep.whole) body.once("error", reject);
            body.once("end", () => {
              const html = Buffer.concat(chunks);
              try {
                if (!failed) keep.rendered(html);
                if (keep.whole) resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
              } catch (error) {
                if (keep.whole) reject(error);
                else
                  errorReporter().captureException(error, {
                    where: "render",
                    path: scrubUrl(new URL(request.url).pathname),
                  });
              }
            });
          }
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          responseStatusCode = 500;
          // Errors before the shell are handed to handleError by the router; later ones are reported here.
          if (shellRendered)
            errorReporter().captureException(error, { where: "render", path: scrubUrl(new URL(request.url).pathname) });
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}
