import { data, href, Link } from "react-router";
import { BuyItemForm } from "~/components/buy-item-form";
import { ClinicPicker } from "~/components/clinic-picker";
import { ErrorMessage } from "~/components/error-message";
import { currentUser } from "#server/request-context.server";
import { clinicChoice, homeClinic, packageViews } from "#server/purchases/offers.server";
import { orUnavailable } from "#server/unavailable.server";
import { buyItemAction } from "~/routes/purchases/buy-answer.server";
import type { Route } from "./+types/list";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.clinic ? `Packages at ${data.clinic.name} | Glow Clinic` : "Packages | Glow Clinic" },
  { name: "description", content: "Glow Clinic packages: a series of treatments at a lower price per session." },
];

/** A clinic's packages: the one asked for (?clinic=<slug>), else the signed-in guest's home clinic. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { services } = context;
  const asked = new URL(request.url).searchParams.get("clinic");
  const { clinics, center: askedCenter } = await orUnavailable(() => clinicChoice(services, asked));
  if (asked && !askedCenter)
    return data({ clinics, clinic: null, packages: [], unknownClinic: true, purchaseKey: "" }, { status: 404 });
  const user = asked ? null : await currentUser(context);
  const center = askedCenter ?? (await orUnavailable(() => homeClinic(services, user?.centerId)));
  const packages = center ? await orUnavailable(() => packageViews(services, center)) : null;
  return {
    clinics,
    clinic: center ? { slug: center.slug, name: center.name } : null,
    packages: packages ?? [],
    unknownClinic: false,
    purchaseKey: crypto.randomUUID(),
  };
}

/** "Buy" on a package: sign in first, then the back end's sale, paid on its hosted card page. */
export const action = buyItemAction("package", "/packages");

export default function Packages({ loaderData, actionData }: Route.ComponentProps) {
  const { clinics, clinic, packages, unknownClinic, purchaseKey } = loaderData;
  return (
    <section className="page">
      <h1>Packages</h1>
      <p>
        A package is a series of the same treatment, paid once at a lower price per session. Book each session as usual;
        the package pays for it.
      </p>
      <ClinicPicker
        clinics={clinics}
        selected={clinic?.slug ?? null}
        unknownClinic={unknownClinic}
        submitLabel="Show packages"
      />

      {clinic ? (
        <>
          <h2>At {clinic.name}</h2>
          {packages.length > 0 ? (
            <ul className="card-grid" aria-label={`Packages at ${clinic.name}`}>
              {packages.map((p) => (
                <li key={p.id} className="location-card">
                  <h3>{p.name}</h3>
                  <p className="price">{p.price}</p>
                  {p.saving ? <p className="badge">{p.saving}</p> : null}
                  {p.description ? <p>{p.description}</p> : null}
                  <ul>
                    {p.sessions.map((s) => (
                      <li key={s.name}>
                        {s.quantity} × {s.name}
                      </li>
                    ))}
                  </ul>
                  {p.validFor ? <p className="muted">{p.validFor}</p> : null}
                  <BuyItemForm
                    action={`${href("/packages")}?clinic=${clinic.slug}`}
                    clinic={clinic.slug}
                    itemId={p.id}
                    priceCents={p.priceCents}
                    purchaseKey={purchaseKey}
                    label={`Buy ${p.name}`}
                    lastResult={
                      actionData && "intent" in actionData && actionData.intent === p.id ? actionData.result : null
                    }
                  />
                </li>
              ))}
            </ul>
          ) : (
            <p>This clinic has no packages online. Please ask the clinic.</p>
          )}
        </>
      ) : (
        <p>Choose a clinic to see its packages and prices.</p>
      )}
      <p>
        <Link to={href("/account/packages")}>Your packages</Link> · <Link to={href("/memberships")}>Memberships</Link> ·{" "}
        <Link to={href("/gift-cards")}>Gift cards</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
