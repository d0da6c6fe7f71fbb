import { vi } from "vitest";

/** The warnings and errors logged from now on in this test, as parsed JSON lines (not printed). */
export function captureWarnings(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  vi.stubEnv("LOG_LEVEL", "warn");
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    lines.push(JSON.parse(String(chunk)));
    return true;
  });
  return lines;
}
