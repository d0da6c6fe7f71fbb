import { afterEach, beforeEach, vi } from "vitest";

// A test fails on any console.error it did not expect (mock it in the test to expect one).
let spy: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  spy = vi.spyOn(console, "error");
});
afterEach(() => {
  const calls = spy.mock.calls;
  spy.mockRestore();
  if (calls.length > 0)
    throw new Error(`unexpected console.error: ${calls.map((c: unknown[]) => c.map(String).join(" ")).join("\n")}`);
});
