/**
 * Every amount of money inside the app is a whole number of US cents (docs/decisions/011). Fields
 * keep their plain names (`price`, `total`, `balance`) and carry the `Cents` type; dollars exist
 * only in what the vendor sends (Zenoti's decimal dollars) and in the spec's shared Firestore
 * collections, and are converted where those are read and written.
 */
export type Cents = number;

/** Decimal dollars from outside (19.99) to cents (1999), once, at the boundary. */
export function centsFromDollars(dollars: number): Cents {
  // 19.99 * 100 is 1998.9999999999998; rounding takes it to the cent it means.
  return Math.round(dollars * 100);
}

/** Cents back to decimal dollars, for a payload or document that is kept in dollars. */
export function dollarsFromCents(cents: Cents): number {
  return cents / 100;
}

/** `percent` per cent of an amount, rounded to the nearest cent (half a cent up). */
export function percentOf(amount: Cents, percent: number): Cents {
  return Math.round((amount * percent) / 100);
}

export function sumCents(amounts: Cents[]): Cents {
  return amounts.reduce((sum, amount) => sum + amount, 0);
}
