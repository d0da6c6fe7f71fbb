import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "zod";

/** The body of a form POST; any other content type, or a broken body, is a 4xx, never a 500. */
export async function formDataOf(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
    throw data("Please send the form from the page.", { status: 415 });
  }
  try {
    return await request.formData();
  } catch {
    throw data("The form could not be read. Please try again.", { status: 400 });
  }
}

/**
 * A form parsed with its schema (decision 013). A field sent twice or as a file fails its schema
 * like any other bad value; a forged Conform field that cannot be read is a 400, never a 500.
 */
export function parseSubmission<Schema extends z.ZodType>(formData: FormData, schema: Schema) {
  try {
    return parseWithZod(formData, { schema });
  } catch {
    throw data("The form could not be read. Please try again.", { status: 400 });
  }
}

/** Fields whose values never go back to the browser, whatever the answer. */
const NEVER_ECHOED = ["password", "oldPassword"];

/**
 * The one answer of a form that did not go through: Conform's result (what was typed, minus any
 * password, and the messages by field) under `result`, with the status that says why: 400 bad
 * input, 401 wrong credentials, 409 a conflict, 429 a limit, 503 a back end down. On a page with
 * several forms, `intent` (the submit button's value) says which form it answers.
 */
export function refuseForm<Intent extends string | undefined = undefined>(
  submission: Submission<unknown, string[], unknown>,
  options: {
    status?: number;
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
    headers?: HeadersInit;
    intent?: Intent;
  } = {},
) {
  const { status = 400, formErrors, fieldErrors, headers, intent } = options;
  return data(
    { intent: intent as Intent, result: submission.reply({ formErrors, fieldErrors, hideFields: NEVER_ECHOED }) },
    { status, headers },
  );
}

/** A single text value of the form (a hidden field outside the schema), or null. */
export function formText(formData: FormData, name: string): string | null {
  const values = formData.getAll(name);
  return values.length === 1 && typeof values[0] === "string" ? values[0] : null;
}
