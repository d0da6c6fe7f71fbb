/** "1234567" as "1,234,567". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * An amount in cents (`Cents` in `~/domain/money`, which builds on this folder, not the other way)
 * as the page shows it: "$275" for whole dollars, "$59.50" otherwise, "-$25" below zero; what
 * `Intl.NumberFormat("en-US")` writes for US dollars, without it. The first `Intl` format of a page
 * loads the browser's locale data, about 35 ms on a fast machine and four times that on a cheap
 * phone, in the middle of the page's start-up (decision 030).
 */
export function formatMoney(amount: number): string {
  const cents = Math.round(Math.abs(amount));
  const dollars = groupThousands(String(Math.floor(cents / 100)));
  const rest = cents % 100;
  const shown = rest === 0 ? `$${dollars}` : `$${dollars}.${String(rest).padStart(2, "0")}`;
  return amount < 0 && cents > 0 ? `-${shown}` : shown;
}

/** Price ranges are shown min-max (spec section 9). */
export function formatPriceRange(min: number, max: number): string {
  return min === max ? formatMoney(min) : `${formatMoney(min)}–${formatMoney(max)}`;
}
