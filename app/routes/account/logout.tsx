import { href, redirect } from "react-router";
import { formDataOf } from "#server/forms.server";
import type { Route } from "./+types/logout";

/** Only a POST signs out (a link or an image cannot). */
export async function loader() {
  return redirect(href("/"));
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services } = context;
  await formDataOf(request);
  const session = await services.sessions.getSession(request.headers.get("cookie"));
  await services.accounts.logout(session.get("userSessionId"));
  session.flash("toast", { id: crypto.randomUUID(), type: "info", title: "You are signed out" });
  session.unset("userSessionId");
  session.unset("draft");
  session.unset("confirmed");
  return redirect(href("/"), { headers: { "set-cookie": await services.sessions.commitSession(session) } });
}
