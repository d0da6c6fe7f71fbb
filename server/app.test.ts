import type { RequestHandler } from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { Services } from "./services";
import { closeTestApps, startTestApp } from "../tests/helpers/test-app";

afterEach(closeTestApps);
const start = startTestApp;

describe("the Express app", () => {
  it("answers a link longer than 4,096 characters with a 414 page", async () => {
    const origin = await start();
    const response = await fetch(`${origin}/locations?q=${"a".repeat(4100)}`);
    expect(response.status).toBe(414);
    expect(await response.text()).toContain("That link is too long");
  });

  it("answers a path whose percent escapes do not decode with a 400 page", async () => {
    const origin = await start();
    const response = await fetch(`${origin}/login%zz`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("That link is not valid");
  });

  it("reports starting on /healthz until the services are built", async () => {
    let services: Services | undefined;
    const origin = await start({ services: () => services });
    expect(await (await fetch(`${origin}/healthz`)).json()).toMatchObject({ status: "starting" });
    services = { hostedPaymentOrigins: [], images: { origins: [] } } as unknown as Services;
    const response = await fetch(`${origin}/healthz`);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toMatchObject({ status: "ok" });
  });

  it("mounts the sandbox at /spa-sandbox only when one is given", async () => {
    const sandbox: RequestHandler = (req, res) => {
      res.status(200).send(`sandbox ${req.path}`);
    };
    const withSandbox = await start({ sandbox });
    expect(await (await fetch(`${withSandbox}/spa-sandbox/v1/centers`)).text()).toBe("sandbox /v1/centers");
    const withoutSandbox = await start();
    expect(await (await fetch(`${withoutSandbox}/spa-sandbox/v1/centers`)).text()).toBe(
      "assets GET /spa-sandbox/v1/centers",
    );
  });

  it("sends a fresh CSP nonce and the security headers with every answer", async () => {
    const services = {
      hostedPaymentOrigins: ["https://pay.example"],
      images: { origins: ["https://img.example"] },
    } as unknown as Services;
    const origin = await start({ services: () => services });
    const [first, second] = await Promise.all([fetch(`${origin}/`), fetch(`${origin}/`)]);
    const nonceOf = (response: Response) =>
      /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonceOf(first)).toBeTruthy();
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    expect(first.headers.get("content-security-policy")).toContain("form-action 'self' https://pay.example");
    expect(first.headers.get("content-security-policy")).toContain("'strict-dynamic'");
    // Pictures from the site and the configured image hosts only (decision 060).
    expect(first.headers.get("content-security-policy")).toContain("img-src 'self' data: https://img.example;");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-powered-by")).toBeNull();
  });

  it("refuses a form posted from another site and lets one from this site through", async () => {
    const origin = await start();
    const crossSite = await fetch(`${origin}/login`, {
      method: "POST",
      headers: { origin: "https://elsewhere.example" },
      body: "a=1",
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain("That form came from another site");
    const sameSite = await fetch(`${origin}/login`, { method: "POST", headers: { origin }, body: "a=1" });
    expect(await sameSite.text()).toBe("assets POST /login");
  });

  it("takes a form posted with Origin: null from this site as having no origin, and refuses one from another site", async () => {
    const echoOrigin: RequestHandler = (req, res) => {
      res.status(299).send(`origin ${req.get("origin") ?? "none"}`);
    };
    const origin = await start({ assets: echoOrigin });
    const fromHere = await fetch(`${origin}/account/appointments/1/cancel`, {
      method: "POST",
      headers: { origin: "null", "sec-fetch-site": "same-origin" },
      body: "a=1",
    });
    expect(await fromHere.text()).toBe("origin none");
    const fromElsewhere = await fetch(`${origin}/account/appointments/1/cancel`, {
      method: "POST",
      headers: { origin: "null", "sec-fetch-site": "cross-site" },
      body: "a=1",
    });
    expect(fromElsewhere.status).toBe(403);
  });
});
