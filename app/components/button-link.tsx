import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Form, useLocation } from "react-router";

type Target = {
  /** Where it goes: a path with its query and hash, as a link's `to`; a query alone stays on this path. */
  to: string;
  /** A document load even with JavaScript: a file to download, or a retry of the whole page. */
  reloadDocument?: boolean;
  preventScrollReset?: boolean;
};

type ButtonLinkProps = Target &
  Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "form"> & { children: ReactNode };

/**
 * A control that looks like a button and goes somewhere: a real button in a GET form of its own, so
 * that Enter and Space both work, with JavaScript (a client-side navigation) and without (the
 * browser submits the form). A link styled as a button ignores Space, and a script to fix that
 * would not run without JavaScript. The query of `to` travels as hidden fields, since a GET form
 * replaces its action's query with its fields.
 */
export function ButtonLink({ to, reloadDocument, preventScrollReset, children, ...button }: ButtonLinkProps) {
  return (
    <ButtonLinkForm to={to} reloadDocument={reloadDocument} preventScrollReset={preventScrollReset}>
      <button type="submit" {...button}>
        {children}
      </button>
    </ButtonLinkForm>
  );
}

/**
 * The form of a `ButtonLink` on its own, for a button that sits inside another form (forms do not
 * nest): place this outside with an `id`, and give the button `form={id}`.
 */
export function ButtonLinkForm({
  id,
  to,
  reloadDocument,
  preventScrollReset,
  children,
}: Target & { id?: string; children?: ReactNode }) {
  const { pathname, search } = useLocation();
  const { action, fields } = formTarget(to, pathname);
  // As a link does: going to the address already shown replaces it in the history, not stacks it.
  const here =
    action.split("#")[0] === pathname &&
    new URLSearchParams(fields).toString() === new URLSearchParams(search).toString();
  return (
    <Form
      method="get"
      action={action}
      id={id}
      className="button-link"
      reloadDocument={reloadDocument}
      preventScrollReset={preventScrollReset}
      replace={here || undefined}
    >
      {fields.map(([name, value], index) => (
        <input key={`${index}-${name}`} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}

/** A link's target as a GET form's action (path and hash) and fields (the query, in order). */
export function formTarget(to: string, currentPath: string): { action: string; fields: [string, string][] } {
  const hashAt = to.indexOf("#");
  const hash = hashAt === -1 ? "" : to.slice(hashAt);
  const beforeHash = hashAt === -1 ? to : to.slice(0, hashAt);
  const queryAt = beforeHash.indexOf("?");
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt === -1 ? "" : beforeHash.slice(queryAt + 1);
  return { action: `${path || currentPath}${hash}`, fields: [...new URLSearchParams(query)] };
}
