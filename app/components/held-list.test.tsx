import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Facts, HeldCard } from "./held-list";

describe("a held thing's facts", () => {
  it("lists each term with its value in the order given, leaving out the terms with no value", () => {
    const out = renderToStaticMarkup(
      <Facts
        facts={[
          ["Sessions left", 0],
          ["Use by", null],
          ["Paid", "$120.00"],
          ["Reference", ""],
          ["For", undefined],
        ]}
      />,
    );
    expect(out).toBe('<dl class="facts"><dt>Sessions left</dt><dd>0</dd><dt>Paid</dt><dd>$120.00</dd></dl>');
  });

  it("draws a card as a list item with its heading, its facts and what follows them", () => {
    const out = renderToStaticMarkup(
      <HeldCard heading="h3" className="waitlist-entry" title="Glow facial" facts={[["Status", "Active"]]}>
        <p>More</p>
      </HeldCard>,
    );
    expect(out).toBe(
      '<li class="visit-card waitlist-entry"><h3>Glow facial</h3><dl class="facts"><dt>Status</dt><dd>Active</dd></dl><p>More</p></li>',
    );
  });
});
