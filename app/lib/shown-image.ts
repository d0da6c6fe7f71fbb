/** A picture as the pages draw it (decision 060); which one is shown is `pickImage`'s rule in `app/domain/images.ts`. */

/** A modern encoding of the same picture, offered before the fallback (`<picture>`). */
export type ImageSource = { type: "image/avif" | "image/webp"; srcSet: string };

export type ShownImage = {
  source: "catalog" | "configuration" | "drawn";
  src: string;
  /** The box it is drawn in (the kind's), in CSS pixels: the page keeps its room before it loads. */
  width: number;
  height: number;
  sources: readonly ImageSource[];
};
