import { href } from "react-router";
import { ButtonLink } from "./button-link";

/** A clinic that is not there: say so, and offer the list of locations. */
export function ClinicNotFound({ title, text }: { title: string; text: string }) {
  return (
    <section className="page narrow">
      <h1>{title}</h1>
      <p>{text}</p>
      <div className="button-row">
        <ButtonLink className="button" to={href("/locations")}>
          See all locations
        </ButtonLink>
      </div>
    </section>
  );
}
