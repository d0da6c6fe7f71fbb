import express from "express";

/**
 * The demo organisation's catalog pictures, as Zenoti would host them for its services: drawings of
 * our own (no photographs, nothing fetched from elsewhere), one per category that has one. The Add-On
 * and Body Sculpting categories have none, as many a real catalog leaves some services bare.
 */
const BY_CATEGORY: Record<string, string> = {
  Facials: "facials",
  Peels: "peels",
  "Laser Hair Removal": "laser",
};

const frame = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">${body}</svg>`;

const PICTURES: Record<string, string> = {
  // A face in profile under a soft mask, with a sparkle.
  facials: frame(
    `<rect width="400" height="400" fill="#efdde7"/><circle cx="300" cy="90" r="150" fill="#f7eef3"/>` +
      `<path d="M150 380c-10-60 0-96 20-120c-26-10-40-30-40-60c0-70 50-120 120-120c56 0 96 40 96 98c0 22-8 34-16 44c10 8 14 16 8 24c-6 8-16 8-16 16c0 10 10 14 2 26c-8 12-32 8-46 12c-8 30-12 54-8 80z" fill="#fff"/>` +
      `<path d="M196 120c30-22 84-18 110 14c10 14 10 30 4 42c-30-16-70-20-114-14c-10-14-10-30 0-42z" fill="#c98fae" fill-opacity=".55"/>` +
      `<path d="M96 86c3 18 15 30 33 33c-18 3-30 15-33 33c-3-18-15-30-33-33c18-3 30-15 33-33z" fill="#d9b48f"/>`,
  ),
  // A bottle and its drop, layered like a peel.
  peels: frame(
    `<rect width="400" height="400" fill="#fbf3e4"/><circle cx="110" cy="300" r="150" fill="#f7eef3"/>` +
      `<rect x="150" y="150" width="100" height="190" rx="22" fill="#fff"/><rect x="172" y="100" width="56" height="56" rx="8" fill="#7a3e5d"/>` +
      `<rect x="150" y="230" width="100" height="110" rx="22" fill="#e2c3d4"/><rect x="150" y="270" width="100" height="70" rx="22" fill="#c98fae"/>` +
      `<path d="M300 130c16 24 28 40 28 56a28 28 0 0 1-56 0c0-16 12-32 28-56z" fill="#d9b48f"/>`,
  ),
  // Light in parallel beams across a soft arc.
  laser: frame(
    `<rect width="400" height="400" fill="#f7eef3"/><path d="M0 300c120-80 280-80 400 0v100H0z" fill="#efdde7"/>` +
      `<g stroke="#c98fae" stroke-width="10" stroke-linecap="round"><path d="M80 80l120 150"/><path d="M140 60l100 170" stroke="#7a3e5d"/><path d="M210 50l60 180"/></g>` +
      `<circle cx="250" cy="236" r="26" fill="#fff"/><circle cx="250" cy="236" r="12" fill="#d9b48f"/>` +
      `<path d="M320 90c3 18 15 30 33 33c-18 3-30 15-33 33c-3-18-15-30-33-33c18-3 30-15 33-33z" fill="#d9b48f"/>`,
  ),
};

/** The picture of a category's services, as a name under the images path; null for none. */
export function catalogPictureOf(category: string): string | null {
  return BY_CATEGORY[category] ?? null;
}

/** The pictures themselves: public, like Zenoti's image host, and never changing. */
export function catalogImagesRouter(): express.Router {
  const router = express.Router();
  router.get("/:name.svg", (req, res) => {
    const picture = Object.hasOwn(PICTURES, req.params.name) ? PICTURES[req.params.name] : undefined;
    if (!picture) return res.status(404).type("text/plain").send("Not found");
    res.set("Cache-Control", "public, max-age=86400").type("image/svg+xml").send(picture);
  });
  return router;
}
