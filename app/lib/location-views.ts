import { href } from "react-router";
import type { ShownImage } from "./shown-image";

/** View models of the location pages: exactly what they render. */

export type LocationCardView = {
  id: string;
  image: ShownImage;
  slug: string;
  name: string;
  line1: string;
  cityLine: string;
  phone: string;
  distanceMiles: number | null;
};

export type ZipSearchView =
  | { state: "none" }
  | { state: "invalid" | "unknown"; zip: string; message: string }
  | {
      state: "found";
      zip: string;
      /** Where the ZIP is, e.g. "Austin, TX 78701". */
      place: string;
      radiusKm: number;
      radiusMiles: number;
      /** The nearest-locations count. */
      count: number;
      results: LocationCardView[];
      /** Set when nothing is within the radius. */
      fallback: LocationCardView | null;
    };

/** Where booking starts for a clinic (the spec's fixed service-selection URL). */
export function bookingUrl(centerId: string): string {
  return `${href("/appointment/service")}?id=${encodeURIComponent(centerId)}`;
}
