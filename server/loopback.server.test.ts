import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { isFromThisMachine, isLoopbackAddress } from "./loopback.server";

const request = (remoteAddress: string | undefined, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe("isLoopbackAddress", () => {
  it("knows loopback in every spelling", () => {
    for (const address of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1", "::FFFF:127.0.0.1"])
      expect(isLoopbackAddress(address)).toBe(true);
  });
  it("refuses every other address", () => {
    for (const address of [
      "203.0.113.5",
      "10.0.0.5",
      "192.168.1.2",
      "::ffff:10.0.0.5",
      "fe80::1",
      "::",
      "0.0.0.0",
      "1270.0.0.1",
      "",
      undefined,
    ]) {
      expect(isLoopbackAddress(address)).toBe(false);
    }
  });
});

describe("isFromThisMachine", () => {
  it("is a loopback peer with no proxy in between", () => {
    expect(isFromThisMachine(request("127.0.0.1"))).toBe(true);
    expect(isFromThisMachine(request("::ffff:127.0.0.1"))).toBe(true);
    expect(isFromThisMachine(request("::1"))).toBe(true);
  });
  it("is not a peer elsewhere, whatever it claims", () => {
    expect(isFromThisMachine(request("203.0.113.5"))).toBe(false);
    expect(isFromThisMachine(request("10.0.0.5", { "x-forwarded-for": "127.0.0.1" }))).toBe(false);
  });
  it("is not a request a proxy on this machine forwarded", () => {
    for (const header of [
      "x-forwarded-for",
      "forwarded",
      "x-real-ip",
      "x-forwarded-host",
      "x-forwarded-proto",
      "via",
    ]) {
      expect(isFromThisMachine(request("127.0.0.1", { [header]: "203.0.113.5" }))).toBe(false);
    }
  });
});
