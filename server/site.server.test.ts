import express from "express";
import type { ServerBuild } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { closeTestApps, startTestApp } from "../tests/helpers/test-app";
import { parseEnv } from "./env.server";
import type { RequestContext } from "./request-context.server";
import { requestOrigin, siteOrigin } from "./site.server";

afterEach(closeTestApps);

/**
 * An Express request as it arrives from `remoteAddress`, read with the app's trust setting: what
 * Express makes of the forwarding headers (`req.ip`, `req.protocol`, `req.host`).
 */
function arriving(trustProxy: string | undefined, remoteAddress: string, headers: Record<string, string>) {
  const app = express();
  app.set("trust proxy", parseEnv(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }).TRUST_PROXY);
  const req = Object.create(app.request) as express.Request;
  Object.assign(req, {
    socket: { remoteAddress },
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  });
  return req;
}

const forged = {
  host: "book.glowclinic.example",
  "x-forwarded-for": "203.0.113.9",
  "x-forwarded-host": "evil.example:8443",
  "x-forwarded-proto": "https",
};

describe("forwarding headers, by who sent them", () => {
  it("by default believes only a proxy on this machine: a host on a private network names neither the client nor the host", () => {
    const fromPrivateNetwork = arriving(undefined, "10.0.0.5", forged);
    expect(fromPrivateNetwork.ip).toBe("10.0.0.5");
    expect(requestOrigin(fromPrivateNetwork)).toBe("http://book.glowclinic.example");
    const fromLinkLocal = arriving(undefined, "169.254.1.1", forged);
    expect(fromLinkLocal.ip).toBe("169.254.1.1");

    // A proxy on this machine (and the browser tests, which send X-Forwarded-For from loopback).
    const fromLoopback = arriving(undefined, "127.0.0.1", forged);
    expect(fromLoopback.ip).toBe("203.0.113.9");
    expect(requestOrigin(fromLoopback)).toBe("https://evil.example:8443");
  });

  it("believes the proxies TRUST_PROXY names, by subnet or by hop count, and nobody else", () => {
    const named = arriving("10.0.0.0/8", "10.0.0.5", forged);
    expect(named.ip).toBe("203.0.113.9");
    expect(requestOrigin(named)).toBe("https://evil.example:8443");
    const outside = arriving("10.0.0.0/8", "192.168.1.9", forged);
    expect(outside.ip).toBe("192.168.1.9");
    expect(requestOrigin(outside)).toBe("http://book.glowclinic.example");
    // With a list that leaves loopback out, even this machine is not believed.
    expect(requestOrigin(arriving("10.0.0.0/8", "127.0.0.1", forged))).toBe("http://book.glowclinic.example");

    const oneHop = arriving("1", "198.51.100.7", { ...forged, "x-forwarded-for": "198.51.100.1, 203.0.113.9" });
    expect(oneHop.ip).toBe("203.0.113.9");
    const none = arriving("false", "127.0.0.1", forged);
    expect(none.ip).toBe("127.0.0.1");
    expect(requestOrigin(none)).toBe("http://book.glowclinic.example");
  });

  it("answers no origin for a host no browser would send", () => {
    for (const host of ["evil.example/path", "user@evil.example", "evil.example:port", ""]) {
      expect(requestOrigin(arriving("false", "127.0.0.1", { host }))).toBeNull();
    }
    expect(requestOrigin(arriving("false", "127.0.0.1", { host: "[::1]:3000" }))).toBe("http://[::1]:3000");
  });
});

describe("the site's origin, where back-end pages send the guest back", () => {
  const contextWith = (env: Record<string, string>, origin?: string) =>
    ({ services: { env: parseEnv(env) }, origin }) as unknown as RequestContext;
  // React Router's request, as its Express adapter builds it: the port taken from X-Forwarded-Host whoever sent it.
  const steered = new Request("http://book.glowclinic.example:8443/purchases/p1/card");

  it("is PUBLIC_URL when set, whatever the request says", () => {
    expect(
      siteOrigin(steered, contextWith({ PUBLIC_URL: "https://book.glowclinic.example/" }, "http://evil.example")),
    ).toBe("https://book.glowclinic.example");
  });

  it("is otherwise the origin Express read through TRUST_PROXY, never the adapter's URL", () => {
    expect(siteOrigin(steered, contextWith({}, "http://book.glowclinic.example"))).toBe(
      "http://book.glowclinic.example",
    );
  });
});

/** A server build of one resource route that answers the site's origin as the app computes it. */
function buildAnsweringOrigin(): ServerBuild {
  const loader = ({ request, context }: { request: Request; context: RequestContext }) =>
    Response.json({ site: siteOrigin(request, context), url: request.url });
  return {
    entry: { module: { default: () => new Response("no documents here", { status: 500 }) } },
    routes: {
      root: { id: "root", path: "", module: {} },
      origin: { id: "origin", parentId: "root", path: "origin", module: { loader } },
    },
    assets: { entry: { imports: [], module: "" }, routes: {}, url: "", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    // Without middleware: the adapter (CommonJS) and this test (ESM) see two copies of its context class.
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

describe("a forged X-Forwarded-Host, through the app", () => {
  const ask = (origin: string, headers: Record<string, string>) =>
    fetch(`${origin}/origin`, { headers }).then((r) => r.json() as Promise<{ site: string; url: string }>);
  const start = (env: Record<string, string>) =>
    startTestApp({
      env: parseEnv({ NODE_ENV: "test", PAGE_CACHE_SECONDS: "0", ...env }),
      build: buildAnsweringOrigin(),
      assets: (_req, _res, next) => next(),
      services: () => undefined,
      servicesReady: Promise.resolve({ env: parseEnv({ NODE_ENV: "test", ...env }) } as never),
    });

  it("cannot choose where the guest is sent back when its sender is not a trusted proxy", async () => {
    const origin = await start({ TRUST_PROXY: "10.0.0.0/8" });
    const { host } = new URL(origin);
    const answer = await ask(origin, { "x-forwarded-host": "evil.example:8443", "x-forwarded-proto": "https" });
    // The adapter's own URL takes the forged port; the site's origin does not.
    expect(new URL(answer.url).port).toBe("8443");
    expect(answer.site).toBe(`http://${host}`);
  });

  it("cannot, with PUBLIC_URL set, even from a trusted proxy", async () => {
    const origin = await start({ PUBLIC_URL: "https://book.glowclinic.example" });
    expect((await ask(origin, { "x-forwarded-host": "evil.example" })).site).toBe("https://book.glowclinic.example");
  });
});
