import { href } from "react-router";
import type { MapDrawing } from "~/domain/clinic-map";

/**
 * The clinics on a map drawn on the server as SVG: no map service, no JavaScript, no inline styles
 * (the CSP allows none). The outline is an image; the pins are a separate group of links over it,
 * one per clinic, named for it and in the order of the numbered list (`listId`), which stays the
 * main way through: a link before the map skips the pins to it.
 */
export function ClinicMap({ drawing, listId }: { drawing: MapDrawing; listId: string }) {
  const { viewBox, outline, pinSize, pins } = drawing;
  const half = pinSize / 2;
  return (
    <>
      <a className="map-skip" href={`#${listId}`}>
        Skip the map to the list of clinics
      </a>
      <div className="map-frame">
        <div className="map-canvas">
          <svg className="clinic-map" viewBox={viewBox} role="img" aria-labelledby="map-title">
            <title id="map-title">Map of our clinics in the United States</title>
            <polygon points={outline} className="land" />
          </svg>
          {/* biome-ignore lint/a11y/useSemanticElements: an SVG has no fieldset; the group names its pins. */}
          <svg className="map-pins" viewBox={viewBox} role="group" aria-label="Pins on the map">
            {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: the leader lines hold nothing focusable; the pins are the links below. */}
            <g aria-hidden="true">
              {pins.map((pin) => {
                const [x, y] = pin.spot;
                const [px, py] = pin.place;
                if (x === px && y === py) return null;
                return (
                  <g key={pin.id}>
                    <line x1={x} y1={y} x2={px} y2={py} className="map-pin-leader" />
                    <circle cx={x} cy={y} r={5} className="map-pin-spot" />
                  </g>
                );
              })}
            </g>
            {pins.map((pin) => {
              const [x, y] = pin.place;
              return (
                <a
                  key={pin.id}
                  href={href("/locations/:slug", { slug: pin.slug })}
                  aria-label={`${pin.number}. ${pin.name}`}
                  className="map-pin"
                >
                  {/* The whole square takes the tap, not only the round marker inside it. */}
                  <rect
                    x={x - half}
                    y={y - half}
                    width={pinSize}
                    height={pinSize}
                    fill="transparent"
                    className="map-pin-area"
                  />
                  <circle cx={x} cy={y} r={half - 2} className="map-pin-marker" />
                  <text x={x} y={y} textAnchor="middle" dominantBaseline="central" className="map-pin-number">
                    {pin.number}
                  </text>
                </a>
              );
            })}
          </svg>
        </div>
      </div>
    </>
  );
}
