import { describe, expect, it } from "vitest";
import { createTokenSigner } from "./signed-tokens.server";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("signed link tokens", () => {
  const now = 1_800_000_000_000;
  const signer = createTokenSigner<{ e: string }>(["a-secret-that-is-long-enough-for-tests"], "test", () => now);

  it("opens its own token until it expires", () => {
    const token = signer.sign({ e: "entry-1" }, now + 60_000);
    expect(signer.verify(token, ["e"])).toEqual({ e: "entry-1" });
    const later = createTokenSigner<{ e: string }>(
      ["a-secret-that-is-long-enough-for-tests"],
      "test",
      () => now + 60_000,
    );
    expect(later.verify(token, ["e"])).toBeNull();
  });

  it("refuses a signature whose last character differs only in bits the decoder ignores", () => {
    const token = signer.sign({ e: "entry-1" }, now + 60_000);
    const last = ALPHABET.indexOf(token.slice(-1));
    // A 32-byte HMAC is 43 characters; the last carries 4 bits, so its low 2 bits are spare.
    const twin = ALPHABET[last ^ 1];
    const altered = `${token.slice(0, -1)}${twin}`;
    expect(Buffer.from(altered.split(".")[1], "base64url")).toEqual(Buffer.from(token.split(".")[1], "base64url"));
    expect(signer.verify(altered, ["e"])).toBeNull();
  });

  it("refuses a token made for another purpose or with another key", () => {
    const token = signer.sign({ e: "entry-1" }, now + 60_000);
    const otherPurpose = createTokenSigner<{ e: string }>(
      ["a-secret-that-is-long-enough-for-tests"],
      "other",
      () => now,
    );
    const otherKey = createTokenSigner<{ e: string }>(["another-secret-that-is-long-enough"], "test", () => now);
    expect(otherPurpose.verify(token, ["e"])).toBeNull();
    expect(otherKey.verify(token, ["e"])).toBeNull();
  });
});
