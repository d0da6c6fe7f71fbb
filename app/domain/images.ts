/**
 * Which picture a clinic, a treatment or a nurse is shown with (decision 060): the back end's
 * catalog image where it has one on a host the pages may load from, else the chain's own from its
 * configuration, else a drawing of our own, one per kind. Every picture is drawn in a box of its
 * kind's size, so nothing moves when it arrives.
 */

import type { ImageSource, ShownImage } from "~/lib/shown-image";

export type { ImageSource, ShownImage };

export type ImageKind = "clinic" | "treatment" | "nurse";

/** The chain's own picture of one thing, from its configuration: a fallback and its modern encodings. */
export type ConfiguredImage = { src: string; sources: readonly ImageSource[] };

/** The box of each kind: a treatment and a nurse as a square thumbnail, a clinic as a 2:1 picture. */
export const IMAGE_BOX: Record<ImageKind, { width: number; height: number }> = {
  clinic: { width: 480, height: 240 },
  treatment: { width: 96, height: 96 },
  nurse: { width: 64, height: 64 },
};

/** Our own drawings, served from `public/images/`: the site's colours, no request to anyone else. */
export const DRAWN_IMAGE: Record<ImageKind, string> = {
  clinic: "/images/clinic.svg",
  treatment: "/images/treatment.svg",
  nurse: "/images/nurse.svg",
};

/**
 * Where pictures may come from. `allowedOrigins` are the hosts the Content-Security-Policy lets
 * images load from besides the site itself; `sameServerOrigin` is the origin the app calls an
 * embedded back end on, which is this very server: its pictures are asked for by path, on whatever
 * origin the visitor uses.
 */
export type ImagePolicy = { allowedOrigins: readonly string[]; sameServerOrigin: string | null };

/**
 * The address a page may show a picture at, or null: a path on this site, or an absolute http(s)
 * address on an allowed host. Anything else (another host, another scheme, a protocol-relative
 * `//host` path) would be refused by the page's policy, so it is not shown at all.
 */
export function usableImageAddress(address: string | null | undefined, policy: ImagePolicy): string | null {
  const value = address?.trim();
  if (!value) return null;
  if (value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (policy.sameServerOrigin !== null && url.origin === policy.sameServerOrigin) {
    return `${url.pathname}${url.search}`;
  }
  // A page served over https loads no http picture: only https hosts are allowed from elsewhere.
  if (url.protocol !== "https:" || !policy.allowedOrigins.includes(url.origin)) return null;
  return url.href;
}

/** The picture to show: catalog, then configuration, then our drawing. */
export function pickImage(
  kind: ImageKind,
  found: { catalog: string | null; configured: ConfiguredImage | null },
  policy: ImagePolicy,
): ShownImage {
  const box = IMAGE_BOX[kind];
  const catalog = usableImageAddress(found.catalog, policy);
  if (catalog) return { source: "catalog", src: catalog, ...box, sources: [] };
  const configured = found.configured ? usableImageAddress(found.configured.src, policy) : null;
  if (configured && found.configured) {
    const sources = found.configured.sources.flatMap((s) => {
      const srcSet = usableImageAddress(s.srcSet, policy);
      return srcSet ? [{ type: s.type, srcSet }] : [];
    });
    return { source: "configuration", src: configured, ...box, sources };
  }
  return { source: "drawn", src: DRAWN_IMAGE[kind], ...box, sources: [] };
}
