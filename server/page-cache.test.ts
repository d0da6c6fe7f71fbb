import express from "express";
import { createHash } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createPageCache, publicPageKey, type PageCacheOptions } from "./page-cache.server";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const SCRIPT = "window.answer = 42;";

/**
 * A stand-in for React Router that writes into every page who it was made for: the visitor's
 * cookie, and a counter of renders. A kept page served to the wrong visitor shows at once.
 */
function pageRenderer() {
  let renders = 0;
  let setCookie: string | null = null;
  let status = 200;
  return {
    renders: () => renders,
    setCookieOnNextRender(cookie: string) {
      setCookie = cookie;
    },
    answerWith(code: number) {
      status = code;
    },
    render: async (url: string, cookie = "none") => {
      renders++;
      const nonce = `nonce${renders}`;
      const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
      if (setCookie) headers.append("set-cookie", setCookie);
      setCookie = null;
      const html = `<!doctype html><title>${new URL(url).pathname}</title><p>render ${renders} for ${cookie}</p><script nonce="${nonce}">${SCRIPT}</script><script nonce="${nonce}" src="/assets/a.js"></script>`;
      return { response: new Response(html, { status, headers }), nonce };
    },
  };
}

async function start(overrides: Partial<PageCacheOptions> = {}) {
  const renderer = pageRenderer();
  let version = 1;
  let now = 0;
  const cache = createPageCache({
    render: (url) => renderer.render(url),
    catalogVersion: () => version,
    csp: () => ({ development: false, formActionOrigins: [] }),
    maxAgeMs: 60_000,
    clock: () => now,
    ...overrides,
  });
  const app = express();
  app.use(cache.middleware);
  // What the router would answer a visitor it renders for: made with their cookie.
  app.use(async (req, res) => {
    const { response } = await renderer.render(`http://x${req.originalUrl}`, req.headers.cookie ?? "none");
    res
      .status(response.status)
      .type("html")
      .send(await response.text());
  });
  const server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    renderer,
    cache,
    bumpCatalog: () => version++,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Asks for the page until the copy made again in the background is served; the wait has no clock of its own. */
async function servedOnceMadeAgain(url: string, made: string): Promise<string> {
  for (;;) {
    const body = await (await fetch(url)).text();
    if (body.includes(made)) return body;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("the render cache of public pages", () => {
  it("renders a public page once and serves it again from memory, with an ETag that answers 304", async () => {
    const { origin, renderer } = await start();
    const first = await fetch(`${origin}/locations`);
    const firstBody = await first.text();
    const second = await fetch(`${origin}/locations`);
    expect(await second.text()).toBe(firstBody);
    expect(renderer.renders()).toBe(1);
    expect(second.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
    expect(second.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    const etag = second.headers.get("etag")!;
    const revalidated = await fetch(`${origin}/locations`, { headers: { "if-none-match": etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
  });

  it("serves no nonce and allows exactly the page's inline scripts by their hashes", async () => {
    const { origin } = await start();
    const response = await fetch(`${origin}/`);
    const html = await response.text();
    expect(html).not.toContain("nonce");
    const hash = createHash("sha256").update(SCRIPT).digest("base64");
    expect(response.headers.get("content-security-policy")).toContain(
      `script-src 'self' 'sha256-${hash}' 'strict-dynamic'`,
    );
    expect(response.headers.get("content-security-policy")).not.toContain("nonce-");
  });

  it("never serves a kept page to a visitor with a session, and never keeps theirs", async () => {
    const { origin, renderer } = await start();
    const anonymous = await (await fetch(`${origin}/`)).text();
    expect(anonymous).toContain("for none");
    const signedIn = await fetch(`${origin}/`, { headers: { cookie: "theme=dark; __session=signed-in-visitor" } });
    expect(await signedIn.text()).toContain("for theme=dark; __session=signed-in-visitor");
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    const booking = await fetch(`${origin}/`, { headers: { cookie: "__booking=draft" } });
    expect(await booking.text()).toContain("for __booking=draft");
    // The next visitor without a session still gets the kept anonymous page.
    expect(await (await fetch(`${origin}/`)).text()).toBe(anonymous);
    expect(renderer.renders()).toBe(3);
  });

  it("does not keep a page that sets a cookie (a toast), nor one that is not a 200", async () => {
    const { origin, renderer } = await start();
    renderer.setCookieOnNextRender("__session=toast; Path=/");
    const withToast = await fetch(`${origin}/terms`);
    // The render the cache refused is done again by the router, for this visitor.
    expect(withToast.headers.get("cache-control")).toBeNull();
    await withToast.text();
    const next = await fetch(`${origin}/terms`);
    await next.text();
    expect(next.headers.get("cache-control")).toMatch(/^public/);
    renderer.answerWith(404);
    const missing = await fetch(`${origin}/locations/closed-clinic`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBeNull();
  });

  it("keeps a clinic's treatment step as first looked at, and nothing further on in the booking", () => {
    expect(publicPageKey(request("/appointment/service?id=c-1"))).toBe(
      "http://shop.example/appointment/service?id=c-1",
    );
    expect(publicPageKey(request("/appointment/service?id=c-1&service=s-1"))).toBeNull();
    expect(
      publicPageKey({ ...request("/appointment/service?id=c-1"), headers: { cookie: "__booking=sealed" } }),
    ).toBeNull();
  });

  it("renders for itself a request with a parameter the page does not read", async () => {
    expect(publicPageKey(request("/locations?zip=78701&view=map"))).toBe(
      "http://shop.example/locations?view=map&zip=78701",
    );
    expect(publicPageKey(request("/locations?view=map&zip=78701"))).toBe(
      "http://shop.example/locations?view=map&zip=78701",
    );
    expect(publicPageKey(request("/locations?utm_source=mail"))).toBeNull();
    expect(publicPageKey(request("/appointment/service?id=c-1&choose=s-1"))).toBeNull();
    expect(publicPageKey(request("/appointment/time"))).toBeNull();
    expect(publicPageKey(request("/locations.data"))).toBeNull();
    expect(publicPageKey({ ...request("/"), method: "POST" })).toBeNull();
  });

  it("makes a page again when the catalog changes or it is a minute old, serving the kept one meanwhile", async () => {
    const { origin, renderer, bumpCatalog, advance } = await start();
    const first = await (await fetch(`${origin}/`)).text();
    bumpCatalog();
    expect(await (await fetch(`${origin}/`)).text()).toBe(first);
    // Made again once, however many ask while it is being made.
    const second = await servedOnceMadeAgain(`${origin}/`, "render 2");
    expect(renderer.renders()).toBe(2);
    advance(60_000);
    expect(await (await fetch(`${origin}/`)).text()).toBe(second);
    await servedOnceMadeAgain(`${origin}/`, "render 3");
    expect(renderer.renders()).toBe(3);
  });

  it("answers gzip and brotli from copies made once", async () => {
    const { origin, renderer } = await start();
    const plain = await (await fetch(`${origin}/privacy`, { headers: { "accept-encoding": "identity" } })).text();
    for (const encoding of ["gzip", "br"]) {
      const response = await fetch(`${origin}/privacy`, { headers: { "accept-encoding": encoding } });
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(await response.text()).toBe(plain);
    }
    expect(renderer.renders()).toBe(1);
  });
});

function request(url: string) {
  return {
    method: "GET",
    originalUrl: url,
    protocol: "http",
    headers: {},
    get: (name: string) => (name === "host" ? "shop.example" : undefined),
  };
}
