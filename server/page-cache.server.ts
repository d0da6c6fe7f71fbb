import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { LRUCache } from "lru-cache";
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { contentSecurityPolicy, inlineScriptHashes, type CspOptions } from "./csp.server";
import { logger } from "./observability/logger.server";
import { SESSION_COOKIE_NAMES } from "./session.server";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The pages every visitor without a session sees alike, and the query parameters each one reads. A
 * request with any other parameter is rendered as usual: the cache never guesses what a page reads.
 */
const PUBLIC_PAGES: ReadonlyArray<{ path: RegExp; params: readonly string[] }> = [
  { path: /^\/$/, params: ["zip"] },
  { path: /^\/locations$/, params: ["zip", "view"] },
  { path: /^\/locations\/[a-z0-9-]{1,80}$/, params: [] },
  { path: /^\/(?:terms|privacy)$/, params: [] },
  // Without a session the plans page reads only the clinic asked for (a signed-in guest's home clinic is theirs).
  { path: /^\/memberships$/, params: ["clinic"] },
  // A clinic's treatment step, first looked at: the step keeps no draft until a treatment is chosen.
  { path: /^\/appointment\/service$/, params: ["id"] },
];

/**
 * What a CDN may do with a kept page: browsers ask again each time (an ETag makes that a 304), a
 * shared cache keeps it a minute and may serve it stale while it asks again. `Vary: Cookie` keeps a
 * shared cache that honours it from answering a visitor with a session (README, Configuration).
 */
export const PUBLIC_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
/** Pages made for a visitor with a session are theirs alone. */
export const PRIVATE_PAGE_CACHE_CONTROL = "private, no-store";

type KeptPage = {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** The document's hash: the ETag of each encoding is derived from it. */
  tag: string;
  csp: string;
  catalogVersion: number;
  renderedAt: number;
};

export type RenderedPage = { response: Response; nonce: string };

export type PageCacheOptions = {
  /** Renders the page at this URL as a visitor without a session, with a nonce of its own, the whole document at once. */
  render: (url: string) => Promise<RenderedPage>;
  /** The catalog's version: a page made from an older one is made again. */
  catalogVersion: () => number;
  csp: () => CspOptions;
  /** A kept page is made again after this long, whatever the catalog says (a clinic's "open now" moves with the clock). */
  maxAgeMs: number;
  /** The most bytes of pages kept, all encodings counted. */
  maxBytes?: number;
  clock?: () => number;
};

/** The cache key of a public page, or null when this request must be rendered for itself. */
export function publicPageKey(
  req: Pick<ExpressRequest, "method" | "originalUrl" | "protocol" | "headers"> & {
    get(name: string): string | undefined;
  },
): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  if (hasSessionCookie(req.headers.cookie)) return null;
  const url = new URL(req.originalUrl, "http://page");
  const page = PUBLIC_PAGES.find((p) => p.path.test(url.pathname));
  if (!page) return null;
  const params = [...url.searchParams.keys()];
  if (params.some((name) => !page.params.includes(name))) return null;
  url.searchParams.sort();
  return `${req.protocol}://${req.get("host") ?? ""}${url.pathname}${url.search}`;
}

export function isPublicPagePath(pathname: string): boolean {
  return PUBLIC_PAGES.some((p) => p.path.test(pathname));
}

function hasSessionCookie(header: string | undefined): boolean {
  if (!header) return false;
  return header
    .split(";")
    .some((pair) => (SESSION_COOKIE_NAMES as readonly string[]).includes(pair.split("=", 1)[0].trim()));
}

/**
 * Public pages for visitors without a session, rendered once per catalog version and served from
 * memory with an ETag, a policy a CDN can honour and a CSP of script hashes (decision 023). A
 * visitor with a session cookie, a page that sets a cookie or answers anything but 200, and a
 * request with a parameter the page does not read are never kept and never served a kept page.
 */
export function createPageCache(options: PageCacheOptions) {
  const clock = options.clock ?? Date.now;
  const pages = new LRUCache<string, KeptPage>({
    maxSize: options.maxBytes ?? 64 * 1024 * 1024,
    sizeCalculation: (page) => page.identity.length + page.gzip.length + page.br.length + 512,
  });
  const rendering = new Map<string, Promise<KeptPage | null>>();
  let hits = 0;
  let misses = 0;

  /** Renders a page and keeps it when it may be shared; concurrent misses of one page share a render. */
  function renderAndKeep(key: string, url: string): Promise<KeptPage | null> {
    const pending = rendering.get(key);
    if (pending) return pending;
    const promise = (async () => {
      const catalogVersion = options.catalogVersion();
      const { response, nonce } = await options.render(url);
      const shareable =
        response.status === 200 &&
        !response.headers.has("set-cookie") &&
        (response.headers.get("content-type") ?? "").startsWith("text/html");
      if (!shareable) {
        await response.body?.cancel();
        pages.delete(key);
        return null;
      }
      const html = (await response.text()).replaceAll(` nonce="${nonce}"`, "");
      // A nonce left anywhere (in a script's text, say) would be served to everyone: such a page is not kept.
      if (html.includes(nonce)) {
        logger.warn("public page not kept: its nonce is still in it", { path: new URL(url).pathname });
        return null;
      }
      const identity = Buffer.from(html, "utf8");
      const [gzipped, brotli] = await Promise.all([
        gzipAsync(identity, { level: 9 }),
        brotliAsync(identity, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
        }),
      ]);
      const page: KeptPage = {
        identity,
        gzip: gzipped,
        br: brotli,
        tag: createHash("sha256").update(identity).digest("base64url").slice(0, 27),
        csp: contentSecurityPolicy(inlineScriptHashes(html), options.csp()),
        catalogVersion,
        renderedAt: clock(),
      };
      pages.set(key, page);
      return page;
    })().finally(() => rendering.delete(key));
    rendering.set(key, promise);
    return promise;
  }

  const isFresh = (page: KeptPage) =>
    page.catalogVersion === options.catalogVersion() && clock() - page.renderedAt < options.maxAgeMs;

  const middleware: RequestHandler = (req, res, next) => {
    const key = publicPageKey(req);
    if (!key) {
      // The same addresses, made for one visitor: no shared cache may keep them.
      if (isPublicPagePath(req.path)) res.setHeader("Cache-Control", PRIVATE_PAGE_CACHE_CONTROL);
      return next();
    }
    const url = `${req.protocol}://${req.get("host") ?? ""}${req.originalUrl}`;
    const kept = pages.get(key);
    if (kept) {
      hits++;
      if (!isFresh(kept)) {
        // Served as it is while it is made again once, in the background (stale-while-revalidate).
        renderAndKeep(key, url).catch((error: unknown) => {
          logger.warn("public page refresh failed; serving the kept copy", {
            path: req.path,
            error: String((error as Error).message),
          });
        });
      }
      send(req, res, kept);
      return;
    }
    misses++;
    renderAndKeep(key, url).then(
      (page) => (page ? send(req, res, page) : next()),
      (error: unknown) => {
        logger.warn("public page render for the cache failed", {
          path: req.path,
          error: String((error as Error).message),
        });
        next();
      },
    );
  };

  return {
    middleware,
    stats: () => ({ pages: pages.size, bytes: pages.calculatedSize, hits, misses }),
    clear: () => pages.clear(),
  };
}

function send(req: ExpressRequest, res: ExpressResponse, page: KeptPage) {
  const encoding = req.acceptsEncodings("br", "gzip", "identity");
  const body = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity;
  const etag = `"${page.tag}${encoding === "br" ? "-br" : encoding === "gzip" ? "-gz" : ""}"`;
  res.setHeader("Content-Security-Policy", page.csp);
  res.setHeader("Cache-Control", PUBLIC_PAGE_CACHE_CONTROL);
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  res.setHeader("ETag", etag);
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  // Any encoding of the same document is a match: it is the same page.
  if ((req.headers["if-none-match"] ?? "").includes(`"${page.tag}`)) {
    res.status(304).end();
    return;
  }
  if (encoding === "br" || encoding === "gzip") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.status(200).end(req.method === "HEAD" ? undefined : body);
}

export type PageCache = ReturnType<typeof createPageCache>;
