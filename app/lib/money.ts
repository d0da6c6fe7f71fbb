// Created once: building a NumberFormat is far dearer than using one.
const WHOLE_DOLLARS = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const DOLLARS_AND_CENTS = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * An amount in cents (`Cents` in `~/domain/money`, which builds on this folder, not the other way)
 * as the page shows it: "$275" for whole dollars, "$59.50" otherwise.
 */
export function formatMoney(amount: number): string {
  return amount % 100 === 0 ? WHOLE_DOLLARS.format(amount / 100) : DOLLARS_AND_CENTS.format(amount / 100);
}

/** Price ranges are shown min-max (spec section 9). */
export function formatPriceRange(min: number, max: number): string {
  return min === max ? formatMoney(min) : `${formatMoney(min)}–${formatMoney(max)}`;
}
