import { data } from "react-router";
import { ForgotPasswordSchema, LoginSchema, RegisterSchema, ResetPasswordSchema } from "~/domain/account-forms";
import { EmailField } from "~/domain/guest";
import { ACCOUNT_MESSAGES } from "~/domain/accounts";
import { fieldErrors } from "~/domain/guest";
import { clearSignInFailures, consume, enforceLimit, tooManyAttempts } from "#server/limits/policy.server";
import { guardJson } from "#server/unavailable.server";
import type { Route } from "./+types/users";

/**
 * The spec's account calls as JSON, for other clients: the session token is a bearer token.
 * POST /api/users (register), POST /api/users/login, DELETE /api/users/logout,
 * GET /api/users/forgot-password?email=, POST /api/users/reset-password, GET /api/users/me.
 */
const MAX_BODY = 16_384;

/** The reset form's schema, with the email the form keeps in the session sent in the body instead. */
const ResetPasswordByEmailSchema = ResetPasswordSchema.extend({ email: EmailField });

function bearer(request: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}

async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  if (!(request.headers.get("content-type") ?? "").startsWith("application/json"))
    throw data({ error: "Send JSON (application/json)." }, { status: 415 });
  let text: string;
  try {
    text = await request.text();
  } catch {
    // The server cut the body off at its limit (and answered 413), or the client went away.
    throw data({ error: "The request could not be read." }, { status: 400 });
  }
  if (text.length > MAX_BODY) throw data({ error: "The request is too large." }, { status: 413 });
  try {
    const body: unknown = JSON.parse(text);
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
    return body as Record<string, unknown>;
  } catch {
    throw data({ error: "The body is not a JSON object." }, { status: 400 });
  }
}

const asCheckbox = (value: unknown) => (value === true ? "on" : undefined);

/** Each call answers a back end that fails with a JSON 503, never a 500. */
export const loader = guardJson(async ({ request, params, context }: Route.LoaderArgs) => {
  const { services } = context;
  const path = params["*"] ?? "";
  if (path === "me") {
    const user = await services.accounts.currentUser(bearer(request));
    if (!user) return data({ error: "Not signed in." }, { status: 401 });
    return data({ user: { id: user.id, email: user.email, guestId: user.guestId, centerId: user.centerId } });
  }
  if (path === "forgot-password") {
    const parsed = ForgotPasswordSchema.safeParse({ email: new URL(request.url).searchParams.get("email") ?? "" });
    if (!parsed.success) return data({ error: parsed.error.issues[0].message }, { status: 400 });
    const { email } = parsed.data;
    await enforceLimit(services, "codeSend", { to: email, ip: context.clientIp });
    await services.accounts.sendResetCode(email);
    return data({ message: "If an account exists for that email, a code is on its way." }, { status: 202 });
  }
  return data({ error: "Not found." }, { status: 404 });
});

export const action = guardJson(async ({ request, params, context }: Route.ActionArgs) => {
  const { services } = context;
  const path = params["*"] ?? "";
  const route = `${request.method} ${path}`;

  if (route === "POST ") {
    const body = await jsonBody(request);
    await enforceLimit(services, "registration", { ip: context.clientIp });
    const parsed = RegisterSchema.safeParse({
      ...body,
      marketingEmail: asCheckbox(body.marketingEmail),
      marketingSms: asCheckbox(body.marketingSms),
      ageConfirmed: asCheckbox(body.ageConfirmed),
    });
    if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, { status: 400 });
    const center = await services.catalog.getCenter(parsed.data.centerId);
    if (!center) return data({ errors: { centerId: "Please choose your home clinic" } }, { status: 400 });
    const result = await services.accounts.register({ ...parsed.data, centerId: center.id });
    const conflict = result.ok
      ? false
      : result.field === "email" || result.message === ACCOUNT_MESSAGES.sameFirstNameDuplicate;
    if (!result.ok) return data({ errors: { [result.field]: result.message } }, { status: conflict ? 409 : 400 });
    return data({ sessionToken: result.value.token, user: result.value.user }, { status: 201 });
  }

  if (route === "POST login") {
    const parsed = LoginSchema.safeParse(await jsonBody(request));
    if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, { status: 400 });
    const who = { email: parsed.data.email, ip: context.clientIp };
    const attempt = await consume(services, "signIn", who);
    if (!attempt.ok) throw tooManyAttempts(attempt);
    const result = await services.accounts.login(parsed.data.email, parsed.data.password);
    if (!result.ok) return data({ error: result.message }, { status: 401 });
    await clearSignInFailures(services, who);
    return data({ sessionToken: result.value.token, user: result.value.user });
  }

  if (route === "DELETE logout") {
    await services.accounts.logout(bearer(request));
    return new Response(null, { status: 204 });
  }

  if (route === "POST reset-password") {
    const parsed = ResetPasswordByEmailSchema.safeParse(await jsonBody(request));
    if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, { status: 400 });
    const { email, code, password } = parsed.data;
    await enforceLimit(services, "codeCheck", { ip: context.clientIp });
    const result = await services.accounts.resetPassword(email, code, password);
    if (!result.ok) return data({ errors: { [result.field]: result.message } }, { status: 400 });
    return data({ message: "Your password has been changed." });
  }

  return data({ error: "Not found." }, { status: 404 });
});
