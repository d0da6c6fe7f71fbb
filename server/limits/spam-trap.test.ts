import { describe, expect, it } from "vitest";
import { createSpamTrap, FORM_TIME_FIELD, SPAM_TRAP_FIELD } from "./spam-trap.server";

/** A submission of a form rendered with these props, the trap field holding `trap`. */
async function submitted(
  props: Awaited<ReturnType<ReturnType<typeof createSpamTrap>["inputProps"]>>,
  trap = "",
): Promise<FormData> {
  const form = new FormData();
  form.set("email", "ana@example.com");
  form.set(props.nameFieldName, trap);
  if (props.validFromFieldName) form.set(props.validFromFieldName, props.encryptedValidFrom);
  return form;
}

describe("the spam trap", () => {
  const trap = createSpamTrap(["current-secret", "previous-secret"]);

  it("lets through a form of ours left as a person leaves it", async () => {
    const props = await trap.inputProps();
    expect(props).toMatchObject({ nameFieldName: SPAM_TRAP_FIELD, validFromFieldName: FORM_TIME_FIELD });
    expect(await trap.isSpam(await submitted(props))).toBe(false);
  });

  it("catches a filled trap field, or one left out of a form that has the form time", async () => {
    const props = await trap.inputProps();
    expect(await trap.isSpam(await submitted(props, "https://spam.example"))).toBe(true);
    const leftOut = await submitted(props);
    leftOut.delete(SPAM_TRAP_FIELD);
    expect(await trap.isSpam(leftOut)).toBe(true);
  });

  it("catches a form whose time is still to come", async () => {
    let now = Date.parse("2026-11-02T10:00:00Z");
    const clocked = createSpamTrap(["current-secret"], () => now);
    const props = await clocked.inputProps();
    now -= 1;
    expect(await clocked.isSpam(await submitted(props))).toBe(true);
    now += 2;
    expect(await clocked.isSpam(await submitted(props))).toBe(false);
  });

  it("leaves a submission that never had the trap to its own checks", async () => {
    const form = new FormData();
    form.set("email", "ana@example.com");
    expect(await trap.isSpam(form)).toBe(false);
  });

  it("catches a form time that is missing, made up or not readable, without throwing", async () => {
    const props = await trap.inputProps();
    const missing = await submitted(props);
    missing.delete(props.validFromFieldName!);
    expect(await trap.isSpam(missing)).toBe(true);
    for (const madeUp of ["1700000000000", "not base64 at all!", btoa("x".repeat(40))]) {
      const form = await submitted(props);
      form.set(props.validFromFieldName!, madeUp);
      expect(await trap.isSpam(form)).toBe(true);
    }
  });

  it("reads a form made by another instance with the same secrets, and one made before the secrets rotated", async () => {
    const sameSecrets = createSpamTrap(["current-secret", "previous-secret"]);
    expect(await trap.isSpam(await submitted(await sameSecrets.inputProps()))).toBe(false);
    const beforeRotation = createSpamTrap(["previous-secret"]);
    expect(await trap.isSpam(await submitted(await beforeRotation.inputProps()))).toBe(false);
    const stranger = createSpamTrap(["someone-elses-secret"]);
    expect(await trap.isSpam(await submitted(await stranger.inputProps()))).toBe(true);
  });
});
