import type { ShownImage } from "~/lib/shown-image";

/**
 * A clinic's, treatment's or nurse's picture (decision 060). Always decorative here: the name it
 * shows is written beside it, so it is skipped by screen readers (alt=""). Drawn in its kind's box
 * (width and height), so the page does not move when it arrives; below the fold it waits until it
 * is near (`lazy`), and decoding never holds up the page. The chain's own pictures come with
 * modern encodings first, the fallback last.
 */
export function CatalogImage({
  image,
  className,
  priority = false,
}: {
  image: ShownImage;
  className?: string;
  /** The page's main picture, in view at once: asked for first instead of waiting. */
  priority?: boolean;
}) {
  const img = (
    <img
      className={className}
      src={image.src}
      width={image.width}
      height={image.height}
      alt=""
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding="async"
    />
  );
  if (image.sources.length === 0) return img;
  return (
    <picture>
      {image.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} />
      ))}
      {img}
    </picture>
  );
}
