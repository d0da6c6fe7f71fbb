/** Seconds before a hold ends when the visitor is told, politely, that time is running out. */
export const HOLD_WARNINGS = [120, 60] as const;

/**
 * The warning due now, if any: the threshold the countdown has just crossed since the one last said
 * (`lastSaid`; start from `firstLastSaid`), once each even when a busy tab skips seconds.
 */
export function holdWarningDue(secondsLeft: number, lastSaid: number): number | null {
  if (secondsLeft <= 0) return null;
  const crossed = HOLD_WARNINGS.filter((t) => secondsLeft <= t && t < lastSaid);
  return crossed.length > 0 ? Math.min(...crossed) : null;
}

/** Where the warnings start for a countdown opened with `secondsLeft`: thresholds already behind it are not said. */
export function firstLastSaid(secondsLeft: number): number {
  const behind = HOLD_WARNINGS.filter((t) => secondsLeft <= t);
  return behind.length > 0 ? Math.min(...behind) : Infinity;
}

/** What is announced at a threshold. */
export function holdWarningText(threshold: number): string {
  const minutes = Math.round(threshold / 60);
  return `${minutes} ${minutes === 1 ? "minute" : "minutes"} left to finish your booking before the time you chose is released.`;
}
