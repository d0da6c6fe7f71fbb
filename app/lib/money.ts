/** "$275" for whole dollars, "$59.50" otherwise. */
export function formatMoney(amount: number): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount);
}

/** Price ranges are shown min-max (spec section 9). */
export function formatPriceRange(min: number, max: number): string {
  return min === max ? formatMoney(min) : `${formatMoney(min)}–${formatMoney(max)}`;
}
