import { data, Form, href, useNavigation } from "react-router";
import { HeldCard, HeldListPage } from "~/components/held-list";
import { formatDay } from "~/lib/dates";
import { requireUser } from "#server/accounts/current-user.server";
import { formDataOf, formText } from "#server/forms.server";
import { redirectWithToast } from "#server/toast.server";
import { accountWaitlist, leaveFromAccount } from "#server/waitlist/waitlist.server";
import type { Route } from "./+types/waitlist";

export const meta: Route.MetaFunction = () => [
  { title: "Your waitlist | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

/** The signed-in guest's waitlist entries (decision 058), each with a way to leave it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context);
  const entries = await accountWaitlist(context.services, user.id);
  return {
    entries: entries.map((e) => ({ ...e, days: e.days.map((d) => formatDay(d, "ddd MMM D")).join(", ") })),
  };
}

/** Leaves one entry: only one of the guest's own; any other id is a 404 and changes nothing. */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireUser(request, context);
  const entryId = formText(await formDataOf(request), "entry");
  if (!entryId || entryId.length > 40 || !(await leaveFromAccount(context.services, user.id, entryId))) {
    throw data("That waitlist entry is not yours, or it has ended already.", { status: 404 });
  }
  return redirectWithToast(context, href("/account/waitlist"), {
    type: "success",
    title: "You've left that waitlist.",
    description: "We won't send you messages about it any more.",
  });
}

export default function AccountWaitlist({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <HeldListPage
      title="Your waitlist"
      items={loaderData.entries}
      empty={{
        text: "You're not waiting for any time. When a day you want is full, the time step offers to tell you when a time opens.",
        to: href("/locations"),
        link: "Find a clinic and book",
      }}
      card={(e) => (
        <HeldCard
          key={e.id}
          className="waitlist-entry"
          title={`${e.treatment} at ${e.clinic}`}
          facts={[
            ["Days", e.days],
            ["Times", e.parts],
            ["Nurse", e.nurse ?? "Any nurse"],
          ]}
        >
          <Form method="post">
            <input type="hidden" name="entry" value={e.id} />
            <p className="actions">
              <button
                type="submit"
                className="button-secondary"
                disabled={navigation.state === "submitting"}
                aria-label={`Leave the waitlist for ${e.treatment} at ${e.clinic}`}
              >
                Leave this waitlist
              </button>
            </p>
          </Form>
        </HeldCard>
      )}
    />
  );
}
