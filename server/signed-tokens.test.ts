import { expect, it } from "vitest";
import { createTokenSigner } from "./signed-tokens.server";

// What the signer refuses through each kind of link (changed, another key, another purpose, expired)
// is tested with those links: manage-link.test.ts, sms-link.test.ts, recovery.test.ts. This is the
// one case none of them can hit on purpose.

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

it("refuses a signature whose last character differs only in bits the decoder ignores", () => {
  const now = 1_800_000_000_000;
  const signer = createTokenSigner<{ e: string }>(["a-secret-that-is-long-enough-for-tests"], "test", () => now);
  const token = signer.sign({ e: "entry-1" }, now + 60_000);
  // A 32-byte HMAC is 43 characters; the last carries 4 bits, so its low 2 bits are spare.
  const twin = BASE64URL[BASE64URL.indexOf(token.slice(-1)) ^ 1];
  const altered = `${token.slice(0, -1)}${twin}`;
  expect(Buffer.from(altered.split(".")[1], "base64url")).toEqual(Buffer.from(token.split(".")[1], "base64url"));
  expect(signer.verify(token, ["e"])).toEqual({ e: "entry-1" });
  expect(signer.verify(altered, ["e"])).toBeNull();
});
