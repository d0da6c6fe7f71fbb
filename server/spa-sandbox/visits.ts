import type { Router } from "express";
import { dayjs } from "../../app/lib/dayjs";
import { toIanaTimeZone } from "../spa/time-zones.server";
import { findRow, type SandboxDb } from "./db";
import { isRefusal, refusal, v1Error, type Refusal } from "./errors";

/**
 * What happens to a visit after it is booked: the guest cancels it (Zenoti cancels a whole
 * invoice), the front desk marks a no-show or closes the invoice once the guest has been. In the
 * sandbox a visit's appointment group is its invoice, as the guest appointments answer says.
 */

const LOCAL_FORMAT = "YYYY-MM-DDTHH:mm:ss";
/** The clinics' late-cancellation policy: inside this many hours of the start, a fee is charged. */
const LATE_CANCEL_HOURS = 12;

type InvoiceRow = { id: string; center_id: string; guest_id: string; is_closed: number; is_cancelled: number };
type AppointmentRow = { id: string; start_local: string; end_local: string; status: number };

/** Appointments still on the books: booked, or checked in and under way (Zenoti's 0, 2, 4). */
const LIVE = "status IN (0, 2, 4)";

function liveAppointments(db: SandboxDb, invoiceId: string): AppointmentRow[] {
  return db
    .prepare(
      `SELECT id, start_local, end_local, status FROM appointments WHERE invoice_id = ? AND ${LIVE} ORDER BY start_local`,
    )
    .all(invoiceId) as AppointmentRow[];
}

function centerZoneOf(db: SandboxDb, centerId: string): string {
  const center = db.prepare("SELECT time_zone_name FROM centers WHERE id = ?").get(centerId) as {
    time_zone_name: string;
  };
  return toIanaTimeZone(center.time_zone_name);
}

/**
 * Moves a visit's appointments to another clinic-local start, keeping their order and lengths (the
 * past allowed): what tests and the demo data use to put visits behind them. Not a Zenoti call.
 * False when there is no such visit.
 */
export function moveVisit(db: SandboxDb, invoiceId: string, start: string): boolean {
  const invoice = findRow<InvoiceRow>(db, "invoices", invoiceId);
  const to = dayjs(start, LOCAL_FORMAT, true);
  if (!invoice || !to.isValid()) return false;
  const rows = db
    .prepare("SELECT id, start_local, end_local, status FROM appointments WHERE invoice_id = ? ORDER BY start_local")
    .all(invoice.id) as AppointmentRow[];
  if (rows.length === 0) return false;
  const shift = to.diff(dayjs(rows[0].start_local, LOCAL_FORMAT), "minute");
  const update = db.prepare("UPDATE appointments SET start_local = ?, end_local = ? WHERE id = ?");
  db.transaction(() => {
    for (const row of rows) {
      update.run(
        dayjs(row.start_local, LOCAL_FORMAT).add(shift, "minute").format(LOCAL_FORMAT),
        dayjs(row.end_local, LOCAL_FORMAT).add(shift, "minute").format(LOCAL_FORMAT),
        row.id,
      );
    }
  })();
  return true;
}

/**
 * Closes the invoice: the guest has been, the visit's live appointments are closed (status 1). The
 * close call (sales.ts) checks it as Zenoti does first; the demo guest's seed calls this directly.
 */
export function closeVisit(db: SandboxDb, invoiceId: string): boolean {
  const invoice = findRow<InvoiceRow>(db, "invoices", invoiceId);
  if (!invoice || invoice.is_cancelled || invoice.is_closed || liveAppointments(db, invoice.id).length === 0)
    return false;
  db.transaction(() => {
    db.prepare(`UPDATE appointments SET status = 1 WHERE invoice_id = ? AND ${LIVE}`).run(invoice.id);
    db.prepare("UPDATE invoices SET is_closed = 1, status = 4 WHERE id = ?").run(invoice.id);
  })();
  return true;
}

/** The guest did not come: the visit's live appointments become no-shows (status -2). */
export function markNoShow(db: SandboxDb, invoiceId: string, comments: string): boolean {
  const invoice = findRow<InvoiceRow>(db, "invoices", invoiceId);
  if (!invoice || invoice.is_cancelled || invoice.is_closed || liveAppointments(db, invoice.id).length === 0)
    return false;
  db.prepare(`UPDATE appointments SET status = -2, comments = ? WHERE invoice_id = ? AND ${LIVE}`).run(
    comments,
    invoice.id,
  );
  return true;
}

/**
 * Zenoti's cancel of an invoice: "This cancels every appointment and purchase on the invoice", for a
 * reason a guest may give; an invoice with payments cannot be cancelled this way. Whether the late
 * fee applies (inside 12 hours of the start), or why not.
 */
export function cancelVisit(
  db: SandboxDb,
  invoiceId: string,
  reasonId: string,
  comments: string,
  now: number,
): { chargeApplied: boolean } | Refusal {
  const invoice = findRow<InvoiceRow>(db, "invoices", invoiceId);
  if (!invoice) return refusal(428, "Request invoices are invalid");
  const reason = reasonId
    ? (db.prepare("SELECT object_type, action_type, active FROM reasons WHERE lower(id) = lower(?)").get(reasonId) as
        | { object_type: number; action_type: number; active: number }
        | undefined)
    : undefined;
  if (!reason || reason.object_type !== 2 || reason.action_type !== 0 || !reason.active)
    return refusal(400, "request is invalid");
  const paid = db.prepare("SELECT COUNT(*) AS n FROM transactions WHERE invoice_id = ?").get(invoice.id) as {
    n: number;
  };
  if (paid.n > 0) return refusal(502, "payments are added to invoice, delete payments and retry");
  const live = liveAppointments(db, invoice.id);
  if (invoice.is_cancelled || invoice.is_closed || live.length === 0)
    return refusal(502, "invoice doesn't have any appointments");
  const startsAt = dayjs.tz(live[0].start_local, LOCAL_FORMAT, centerZoneOf(db, invoice.center_id)).valueOf();
  db.transaction(() => {
    db.prepare(`UPDATE appointments SET status = -1 WHERE invoice_id = ? AND ${LIVE}`).run(invoice.id);
    db.prepare("UPDATE invoices SET is_cancelled = 1, cancel_reason_id = ?, cancel_comments = ? WHERE id = ?").run(
      reasonId,
      comments.slice(0, 1000),
      invoice.id,
    );
  })();
  return { chargeApplied: startsAt - now < LATE_CANCEL_HOURS * 3_600_000 };
}

export function mountVisits(router: Router, db: SandboxDb, options: { now: () => number }) {
  const { now } = options;

  router.put("/v1/invoices/:invoiceId/cancel", (req, res) => {
    const body = (req.body ?? {}) as { reason_id?: unknown; comments?: unknown };
    const reasonId = typeof body.reason_id === "string" ? body.reason_id : "";
    const comments = typeof body.comments === "string" ? body.comments : "";
    const cancelled = cancelVisit(db, req.params.invoiceId, reasonId, comments, now());
    if (isRefusal(cancelled))
      return v1Error(res, 200, cancelled.code, cancelled.message, { success: false, is_charge_applied: false });
    res.json({ success: true, is_charge_applied: cancelled.chargeApplied, error: null });
  });

  router.put("/v1/appointments/:groupId/no_show", (req, res) => {
    const comments = String((req.body as { comments?: unknown } | undefined)?.comments ?? "").slice(0, 1000);
    if (!markNoShow(db, req.params.groupId, comments))
      return v1Error(res, 200, 502, "Appointment cannot be marked as no show");
    res.json({ error: null });
  });

  // The sandbox's own control, not a Zenoti call: moves a visit in time (into the past, too).
  router.post("/v1/sandbox/appointments/:groupId/move", (req, res) => {
    const start = String((req.body as { start?: unknown } | undefined)?.start ?? "");
    if (!moveVisit(db, req.params.groupId, start))
      return v1Error(res, 200, 400, "Unknown visit, or start is not YYYY-MM-DDTHH:mm:ss");
    res.json({ success: true, error: null });
  });
}
