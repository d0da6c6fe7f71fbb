import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { ButtonLink } from "./button-link";
import { ClinicMap } from "./clinic-map";
import { drawMap } from "~/domain/clinic-map";
import { Toaster } from "./toaster";
import { useStartHere } from "./route-focus";

/** The server's HTML of a component on a page at `path`, inside a router as the app has. */
function html(element: React.ReactNode, path = "/here?x=1") {
  const Stub = createRoutesStub([{ path: "*", Component: () => <>{element}</> }]);
  return renderToString(<Stub initialEntries={[path]} />);
}

describe("a button that goes somewhere, as the server draws it", () => {
  it("is a submit button in a GET form whose action and hidden fields make the address", () => {
    const out = html(
      <ButtonLink className="button" to="/login?redirectTo=%2Fappointment%2Fdetails" aria-label="Sign in to book">
        Sign in
      </ButtonLink>,
    );
    const form = /<form[^>]*>/.exec(out)![0];
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/login"');
    expect(out).toContain('<input type="hidden" name="redirectTo" value="/appointment/details"/>');
    expect(out).toMatch(/<button type="submit" class="button" aria-label="Sign in to book">Sign in<\/button>/);
    expect(out).not.toContain("<a ");
  });
});

describe("the clinic map, as the server draws it", () => {
  const pins = [
    {
      id: "a",
      slug: "austin-downtown",
      name: "Glow Clinic Austin Downtown",
      latitude: 30.2653,
      longitude: -97.7443,
      number: 1,
    },
    {
      id: "b",
      slug: "dallas-uptown",
      name: "Glow Clinic Dallas Uptown",
      latitude: 32.7959,
      longitude: -96.8031,
      number: 2,
    },
  ];
  const out = html(<ClinicMap drawing={drawMap(pins)} listId="map-list" />, "/locations?view=map");

  it("keeps the pins out of the image, each a link named for its clinic, in number order", () => {
    const image = /<svg[^>]*role="img"[\s\S]*?<\/svg>/.exec(out)![0];
    expect(image).not.toContain("<a ");
    const links = [...out.matchAll(/<a [^>]*aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual(["1. Glow Clinic Austin Downtown", "2. Glow Clinic Dallas Uptown"]);
    expect(out).toContain('href="/locations/austin-downtown"');
  });

  it("offers a way past the pins to the list", () => {
    expect(out).toMatch(/<a class="map-skip" href="#map-list">Skip the map to the list of clinics<\/a>/);
  });
});

describe("a toast, as the server draws it (what a visitor without JavaScript gets)", () => {
  it("is in the page's flow, announced by its kind, with no Close button that could do nothing", () => {
    const out = html(<Toaster toast={{ id: "t1", type: "error", title: "That time was just taken." }} />);
    expect(out).toContain('role="alert"');
    expect(out).toContain("That time was just taken.");
    // Unmarked, the toasts' region stays in the flow (controls.css); the script marks it once running.
    expect(out).not.toContain("data-enhanced");
    expect(out).not.toContain("<button");
  });
});

describe("where a booking step starts, as the server draws it", () => {
  function Start({ here }: { here: boolean }) {
    return (
      <button type="button" {...useStartHere(here)}>
        Add a card
      </button>
    );
  }

  it("is focused by the browser on a page loaded whole, and marked for the focus after a navigation", () => {
    const out = html(<Start here />);
    expect(out).toMatch(/<button type="button" autofocus="" data-focus-on-arrival="">Add a card<\/button>/);
  });

  it("is nothing on a control that is not the start", () => {
    expect(html(<Start here={false} />)).toContain('<button type="button">Add a card</button>');
  });
});
