import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createImagePicker, NO_CHAIN_IMAGES, readChainImages } from "./images.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chain-images-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(content: unknown): string {
  const name = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(name, typeof content === "string" ? content : JSON.stringify(content));
  return name;
}

const policy = { allowedOrigins: ["https://images.example.com"], sameServerOrigin: null };

describe("the chain's own pictures", () => {
  it("are none without a file", () => {
    expect(readChainImages(undefined, policy)).toBe(NO_CHAIN_IMAGES);
  });

  it("find a clinic by its code or id, a treatment by its code or id, and a nurse by its id", () => {
    const chain = readChainImages(
      file({
        clinics: { atx: { src: "/chain/austin.jpg", sources: [{ type: "image/webp", srcSet: "/chain/austin.webp" }] } },
        treatments: { "FT-NEW": { src: "https://images.example.com/facial.jpg" } },
        nurses: { "T-1": { src: "/chain/ann.jpg" } },
      }),
      policy,
    );
    const picker = createImagePicker(chain, policy);
    expect(picker.clinic({ id: "c1", code: "ATX" })).toMatchObject({
      source: "configuration",
      src: "/chain/austin.jpg",
      sources: [{ type: "image/webp", srcSet: "/chain/austin.webp" }],
    });
    expect(picker.clinic({ id: "c2", code: "DAL" }).source).toBe("drawn");
    expect(picker.treatment({ id: "s1", code: "FT-NEW", imageUrl: null })).toMatchObject({
      source: "configuration",
      src: "https://images.example.com/facial.jpg",
    });
    // The back end's own picture comes first.
    expect(
      picker.treatment({ id: "s1", code: "FT-NEW", imageUrl: "https://images.example.com/zenoti-facial.jpg" }),
    ).toMatchObject({ source: "catalog", src: "https://images.example.com/zenoti-facial.jpg" });
    expect(picker.nurse({ id: "t-1", imageUrl: null })).toMatchObject({ source: "configuration" });
    expect(picker.nurse({ id: "t-2", imageUrl: null })).toMatchObject({ source: "drawn", src: "/images/nurse.svg" });
    expect(picker.origins).toEqual(["https://images.example.com"]);
  });

  it("stop the start, naming the setting, when the file is unreadable, malformed or points elsewhere", () => {
    expect(() => readChainImages(path.join(dir, "missing.json"), policy)).toThrow(/^CATALOG_IMAGES_FILE: cannot read/);
    expect(() => readChainImages(file("{ not json"), policy)).toThrow(/^CATALOG_IMAGES_FILE/);
    expect(() => readChainImages(file({ clinics: { atx: { src: "" } } }), policy)).toThrow(
      /^CATALOG_IMAGES_FILE: clinics\.atx\.src/,
    );
    expect(() =>
      readChainImages(file({ nurses: { t1: { src: "https://elsewhere.example.org/ann.jpg" } } }), policy),
    ).toThrow(/nurses\.t1: https:\/\/elsewhere\.example\.org\/ann\.jpg is neither/);
  });
});
