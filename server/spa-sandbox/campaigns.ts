/**
 * The sandbox's campaign pricing, its own and not the storefront's: a campaign (an offer code in
 * Zenoti) gives a benefit per service or per kind of invoice line. Kept in Zenoti's decimal
 * dollars, worked out in whole cents so that an invoice's lines and dues never drift.
 */

/** The kinds of invoice line a campaign can name: a treatment, an add-on, the fixer add-on. */
export type LineKind = "service" | "addon-service" | "addon-fixer";

export type CampaignBenefit = {
  /** A percentage off, an amount off, or the price the line is sold at. */
  discount_type: "percentage" | "amount" | "final_price";
  /** Per cent for a percentage; dollars for an amount or a final price. */
  discount_value: number;
  /** One service, or null for every line of the kind. */
  service_id: string | null;
  service_type: LineKind;
};

export type CampaignLine = { serviceId: string; kind: LineKind; priceCents: number };

/** Dollars as whole cents; 19.99 * 100 is 1998.9999999999998, so it is rounded. */
export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function toDollars(cents: number): number {
  return cents / 100;
}

function benefitFits(benefit: CampaignBenefit, line: CampaignLine): boolean {
  if (benefit.service_type !== line.kind) return false;
  return benefit.service_id === null || benefit.service_id.toLowerCase() === line.serviceId.toLowerCase();
}

/** Cents one benefit takes off a price: between nothing and the whole price. */
export function benefitCents(benefit: CampaignBenefit, priceCents: number): number {
  if (priceCents <= 0) return 0;
  const off = (() => {
    switch (benefit.discount_type) {
      case "percentage":
        return Math.round((priceCents * benefit.discount_value) / 100);
      case "amount":
        return toCents(benefit.discount_value);
      case "final_price":
        return priceCents - toCents(benefit.discount_value);
    }
  })();
  return Math.min(priceCents, Math.max(0, off));
}

/** Each line's discount in cents: the best benefit that fits it, benefits never adding up on a line. */
export function campaignDiscounts(lines: CampaignLine[], benefits: CampaignBenefit[]): number[] {
  return lines.map((line) =>
    benefits
      .filter((b) => benefitFits(b, line))
      .reduce((best, b) => Math.max(best, benefitCents(b, line.priceCents)), 0),
  );
}
