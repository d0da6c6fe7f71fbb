import type { SubmissionResult } from "@conform-to/react";
import { useNavigation } from "react-router";
import { SchemaForm, useSchemaForm } from "./forms";
import { FORMS } from "~/domain/form-contracts";

/**
 * "Buy" on a membership plan or a package: a POST form of its own per item, carrying the clinic,
 * the item, the price the page showed (checked against the back end's, never charged) and the
 * page's purchase key, so that a double press or a retry is one purchase (decision 031).
 */
export function BuyItemForm({
  action,
  clinic,
  itemId,
  priceCents,
  purchaseKey,
  label,
  lastResult,
}: {
  action: string;
  clinic: string;
  itemId: string;
  priceCents: number;
  purchaseKey: string;
  label: string;
  lastResult: SubmissionResult<string[]> | null;
}) {
  const schemaForm = useSchemaForm(FORMS.BuyItemSchema, { id: `buy-${itemId}`, lastResult });
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("itemId") === itemId;
  return (
    <SchemaForm schemaForm={schemaForm} action={action} className="buy-form">
      <input type="hidden" name="clinic" value={clinic} />
      <input type="hidden" name="itemId" value={itemId} />
      <input type="hidden" name="price" value={priceCents} />
      <input type="hidden" name="purchaseKey" value={purchaseKey} />
      <button type="submit" disabled={busy} aria-busy={busy || undefined}>
        {label}
      </button>
    </SchemaForm>
  );
}
