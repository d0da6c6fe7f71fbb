import fs from "node:fs";
import { z } from "zod";
import type { Center, Service, Therapist } from "~/domain/catalog";
import {
  pickImage,
  usableImageAddress,
  type ConfiguredImage,
  type ImageKind,
  type ImagePolicy,
  type ShownImage,
} from "~/domain/images";

/**
 * The chain's own pictures (decision 060): a JSON file named by CATALOG_IMAGES_FILE, read once at
 * start. Clinics are found by their code or id, treatments by their code or id, nurses by their id.
 */
const ImageSchema = z.object({
  src: z.string().min(1),
  sources: z.array(z.object({ type: z.enum(["image/avif", "image/webp"]), srcSet: z.string().min(1) })).default([]),
});
const ChainImagesSchema = z.object({
  clinics: z.record(z.string(), ImageSchema).default({}),
  treatments: z.record(z.string(), ImageSchema).default({}),
  nurses: z.record(z.string(), ImageSchema).default({}),
});

export type ChainImages = Record<"clinics" | "treatments" | "nurses", Map<string, ConfiguredImage>>;

export const NO_CHAIN_IMAGES: ChainImages = { clinics: new Map(), treatments: new Map(), nurses: new Map() };

/**
 * Reads and checks the chain's pictures: every address must be one the pages may load (a path on
 * this site, or https on IMAGE_ORIGINS), so a picture the policy would refuse stops the start
 * instead of leaving a broken image. Throws a message naming the setting.
 */
export function readChainImages(file: string | undefined, policy: ImagePolicy): ChainImages {
  if (!file) return NO_CHAIN_IMAGES;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`CATALOG_IMAGES_FILE: cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const parsed = ChainImagesSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`CATALOG_IMAGES_FILE: ${issue.path.join(".")}: ${issue.message}`);
  }
  const kinds = ["clinics", "treatments", "nurses"] as const;
  for (const kind of kinds) {
    for (const [key, image] of Object.entries(parsed.data[kind])) {
      for (const address of [image.src, ...image.sources.map((s) => s.srcSet)]) {
        if (usableImageAddress(address, { ...policy, sameServerOrigin: null }) === null) {
          throw new Error(
            `CATALOG_IMAGES_FILE: ${kind}.${key}: ${address} is neither a path on this site nor on IMAGE_ORIGINS`,
          );
        }
      }
    }
  }
  const byKey = (entries: Record<string, ConfiguredImage>) =>
    new Map(Object.entries(entries).map(([key, image]) => [key.toLowerCase(), image]));
  return {
    clinics: byKey(parsed.data.clinics),
    treatments: byKey(parsed.data.treatments),
    nurses: byKey(parsed.data.nurses),
  };
}

/** The picture each clinic, treatment and nurse is shown with. */
export type ImagePicker = {
  clinic(center: Pick<Center, "id" | "code">): ShownImage;
  treatment(service: Pick<Service, "id" | "code" | "imageUrl">): ShownImage;
  nurse(therapist: Pick<Therapist, "id" | "imageUrl">): ShownImage;
  /** The hosts besides the site itself that pictures may come from: the page's img-src. */
  origins: readonly string[];
};

export function createImagePicker(chain: ChainImages, policy: ImagePolicy): ImagePicker {
  const configured = (map: Map<string, ConfiguredImage>, ...keys: string[]) =>
    keys.map((key) => map.get(key.toLowerCase())).find((image) => image !== undefined) ?? null;
  const pick = (kind: ImageKind, catalog: string | null, found: ConfiguredImage | null) =>
    pickImage(kind, { catalog, configured: found }, policy);
  return {
    // Zenoti publishes no picture of a center: the chain's own, or ours.
    clinic: (center) => pick("clinic", null, configured(chain.clinics, center.code, center.id)),
    treatment: (service) => pick("treatment", service.imageUrl, configured(chain.treatments, service.code, service.id)),
    nurse: (therapist) => pick("nurse", therapist.imageUrl, configured(chain.nurses, therapist.id)),
    origins: policy.allowedOrigins,
  };
}
