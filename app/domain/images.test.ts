import { describe, expect, it } from "vitest";
import { DRAWN_IMAGE, IMAGE_BOX, pickImage, usableImageAddress, type ImagePolicy } from "./images";

const policy: ImagePolicy = { allowedOrigins: ["https://images.example.com"], sameServerOrigin: null };
const embedded: ImagePolicy = { allowedOrigins: [], sameServerOrigin: "http://127.0.0.1:3000" };
const chainPhoto = {
  src: "/chain/austin.jpg",
  sources: [
    { type: "image/avif" as const, srcSet: "/chain/austin.avif" },
    { type: "image/webp" as const, srcSet: "https://elsewhere.example.net/austin.webp" },
  ],
};

describe("pickImage", () => {
  it("shows the back end's catalog image when it is on an allowed host, in its kind's box", () => {
    expect(
      pickImage("treatment", { catalog: "https://images.example.com/facial.jpg", configured: chainPhoto }, policy),
    ).toEqual({
      source: "catalog",
      src: "https://images.example.com/facial.jpg",
      width: IMAGE_BOX.treatment.width,
      height: IMAGE_BOX.treatment.height,
      sources: [],
    });
  });

  it("falls back to the chain's own picture when the catalog has none, keeping only its usable encodings", () => {
    expect(pickImage("clinic", { catalog: null, configured: chainPhoto }, policy)).toEqual({
      source: "configuration",
      src: "/chain/austin.jpg",
      ...IMAGE_BOX.clinic,
      sources: [{ type: "image/avif", srcSet: "/chain/austin.avif" }],
    });
  });

  it("falls back to the chain's own picture when the catalog's is on a host the page may not load from", () => {
    const picked = pickImage(
      "nurse",
      { catalog: "https://cdn.unknown.example.org/nurse.png", configured: chainPhoto },
      policy,
    );
    expect(picked.source).toBe("configuration");
  });

  it("draws our own picture when neither the catalog nor the configuration has a usable one", () => {
    for (const kind of ["clinic", "treatment", "nurse"] as const) {
      expect(
        pickImage(
          kind,
          { catalog: "javascript:alert(1)", configured: { src: "//evil.example/x.png", sources: [] } },
          policy,
        ),
      ).toEqual({ source: "drawn", src: DRAWN_IMAGE[kind], ...IMAGE_BOX[kind], sources: [] });
    }
  });

  it("asks for an embedded back end's picture by its path on this site", () => {
    expect(
      pickImage(
        "treatment",
        { catalog: "http://127.0.0.1:3000/spa-sandbox/images/peel.svg", configured: null },
        embedded,
      ),
    ).toMatchObject({ source: "catalog", src: "/spa-sandbox/images/peel.svg" });
  });
});

describe("usableImageAddress", () => {
  it("takes a path on this site and an https address on an allowed host", () => {
    expect(usableImageAddress(" /images/a.png ", policy)).toBe("/images/a.png");
    expect(usableImageAddress("https://images.example.com/a b.png", policy)).toBe(
      "https://images.example.com/a%20b.png",
    );
  });

  it("refuses other hosts, plain http from elsewhere, other schemes, protocol-relative paths and blanks", () => {
    for (const address of [
      "https://images.example.com.evil.example/a.png",
      "http://images.example.com/a.png",
      "data:image/png;base64,AAAA",
      "//images.example.com/a.png",
      "/\\evil.example/a.png",
      "not a url",
      "",
      null,
      undefined,
    ]) {
      expect(usableImageAddress(address, policy)).toBeNull();
    }
  });
});
