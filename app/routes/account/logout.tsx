import { href, redirect } from "react-router";
import { formDataOf } from "#server/forms.server";
import { requestSession } from "#server/request-context.server";
import { redirectWithToast } from "#server/toast.server";
import { guardAction } from "#server/unavailable.server";
import type { Route } from "./+types/logout";

/** Only a POST signs out (a link or an image cannot). */
export async function loader() {
  return redirect(href("/"));
}

export const action = guardAction(async ({ request, context }: Route.ActionArgs) => {
  await formDataOf(request);
  const session = requestSession(context);
  await context.services.accounts.logout(session.get("userSessionId"));
  session.unset("userSessionId");
  session.unset("draft");
  session.unset("confirmed");
  return redirectWithToast(context, href("/"), { type: "info", title: "You are signed out" });
});
