import { describe, expect, it } from "vitest";
import { createLinkSigner } from "./sms-link.server";

const A = "a".repeat(40);
const B = "b".repeat(40);

describe("SMS booking links", () => {
  it("carries the guest and clinic while it is valid", () => {
    const signer = createLinkSigner([A]);
    expect(signer.verify(signer.sign("guest-1", "center-1"))).toEqual({ guestId: "guest-1", centerId: "center-1" });
  });

  it("ignores an altered, unsigned, foreign or expired token", () => {
    let now = 1_000_000;
    const signer = createLinkSigner([A], () => now);
    const token = signer.sign("guest-1", "center-1", 60);
    const [body, signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ g: "guest-2", c: "center-1", exp: 9e9 })).toString("base64url");
    expect(signer.verify(`${forged}.${signature}`)).toBeNull();
    expect(signer.verify(body)).toBeNull();
    expect(signer.verify(`${body}.${signature}.x`)).toBeNull();
    expect(createLinkSigner([B]).verify(token)).toBeNull();
    expect(signer.verify("")).toBeNull();
    now += 61_000;
    expect(signer.verify(token)).toBeNull();
  });

  it("verifies tokens signed with an older secret after rotation", () => {
    const token = createLinkSigner([A]).sign("g", "c");
    expect(createLinkSigner([B, A]).verify(token)).toEqual({ guestId: "g", centerId: "c" });
  });
});
