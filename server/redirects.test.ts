import { describe, expect, it } from "vitest";
import { safeLocalPath, sameSiteReferer } from "./redirects.server";

describe("safeLocalPath", () => {
  it("keeps paths on this site", () => {
    expect(safeLocalPath("/locations?zip=78701")).toBe("/locations?zip=78701");
    expect(safeLocalPath("/account#top")).toBe("/account#top");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "evil",
      "/%0d%0aSet-Cookie:x",
      "\t/x",
    ]) {
      const result = safeLocalPath(bad);
      expect(result.startsWith("//")).toBe(false);
      expect(result === "/" || result.startsWith("/%0d")).toBe(true);
    }
    expect(safeLocalPath(null, "/home")).toBe("/home");
  });
  it("refuses paths that only leave the site once dot segments are resolved", () => {
    for (const bad of [
      "/.//evil.example",
      "/..//evil.example",
      "/%2e%2e//evil.example",
      "/%2E//evil.example",
      "/a/..//evil.example",
      "/./\\evil.example",
      "/.//evil.example/path?x=1#top",
    ]) {
      expect(safeLocalPath(bad, "/account/profile")).toBe("/account/profile");
    }
  });
  it("still resolves harmless dot segments", () => {
    expect(safeLocalPath("/a/../locations")).toBe("/locations");
    expect(safeLocalPath("/./account/profile")).toBe("/account/profile");
  });
});

describe("sameSiteReferer", () => {
  const request = (referer?: string) =>
    new Request("http://shop.example/error", { headers: referer ? { referer } : {} });
  it("returns the referring page of this site", () => {
    expect(sameSiteReferer(request("http://shop.example/locations?zip=78701"))).toBe("/locations?zip=78701");
  });
  it("ignores other sites and missing or broken referers", () => {
    expect(sameSiteReferer(request("https://evil.example/"))).toBeNull();
    expect(sameSiteReferer(request("http://shop.example.evil.example/"))).toBeNull();
    expect(sameSiteReferer(request())).toBeNull();
    expect(sameSiteReferer(request("not a url"))).toBeNull();
  });
});
