import { href, Link } from "react-router";

/** A clinic that is not there: say so, and offer the list of locations. */
export function ClinicNotFound({ title, text }: { title: string; text: string }) {
  return (
    <section className="page narrow">
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <Link className="button" to={href("/locations")}>
          See all locations
        </Link>
      </p>
    </section>
  );
}
