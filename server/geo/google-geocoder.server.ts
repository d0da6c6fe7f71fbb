import { Client, Status } from "@googlemaps/google-maps-services-js";
import { GeocoderError, type Geocoder } from "./geocoder.server";

/** Google Maps Geocoding, used when an API key is configured. */
export function createGoogleGeocoder(options: { apiKey: string; timeoutMs?: number; client?: Client }): Geocoder {
  const client = options.client ?? new Client({});
  return {
    kind: "google",
    async geocodeZip(zip) {
      try {
        const response = await client.geocode({
          params: { address: zip, components: { country: "US", postal_code: zip }, key: options.apiKey },
          timeout: options.timeoutMs ?? 5_000,
        });
        if (response.data.status === Status.ZERO_RESULTS) return null;
        if (response.data.status !== Status.OK) throw new GeocoderError(`geocoding failed: ${response.data.status}`);
        const first = response.data.results[0];
        if (!first) return null;
        return {
          latitude: first.geometry.location.lat,
          longitude: first.geometry.location.lng,
          label: first.formatted_address,
        };
      } catch (error) {
        if (error instanceof GeocoderError) throw error;
        throw new GeocoderError("geocoding failed", { cause: error });
      }
    },
  };
}
