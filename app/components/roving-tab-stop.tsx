import { useEffect, useState, type KeyboardEvent } from "react";

const NEXT = new Set(["ArrowRight", "ArrowDown"]);
const PREVIOUS = new Set(["ArrowLeft", "ArrowUp"]);

/**
 * One Tab stop for a row of controls, the arrow keys (and Home, End) moving among them: the
 * "roving tabindex" of the ARIA authoring practices. The stop is the current control (else the
 * first), or the one the arrows last reached. Without JavaScript nothing changes: every control
 * stays a Tab stop of its own. The controls carry `data-roving` with their value; `values` lists
 * them in their order.
 */
export function useRovingTabStop(values: readonly string[], current: string | null) {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const [reached, setReached] = useState<{ value: string; current: string | null } | null>(null);
  // An arrow's choice lasts until the current control changes (a press, a new page).
  const arrowed = reached && reached.current === current && values.includes(reached.value) ? reached.value : null;
  const stop = arrowed ?? (current && values.includes(current) ? current : (values[0] ?? null));

  return {
    tabIndexOf: (value: string): 0 | -1 | undefined => (enhanced ? (value === stop ? 0 : -1) : undefined),
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      const from = (event.target as HTMLElement).closest<HTMLElement>("[data-roving]")?.dataset.roving;
      const at = from === undefined ? -1 : values.indexOf(from);
      if (at === -1) return;
      let to = at;
      if (NEXT.has(event.key)) to = Math.min(values.length - 1, at + 1);
      else if (PREVIOUS.has(event.key)) to = Math.max(0, at - 1);
      else if (event.key === "Home") to = 0;
      else if (event.key === "End") to = values.length - 1;
      else return;
      event.preventDefault();
      const target = event.currentTarget.querySelector<HTMLElement>(`[data-roving="${CSS.escape(values[to])}"]`);
      setReached({ value: values[to], current });
      target?.focus();
    },
  };
}
