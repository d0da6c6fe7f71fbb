import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { preparePrivateFile } from "../data-dir.server";
import { logger } from "../observability/logger.server";

export type Message = { channel: "email" | "sms"; to: string; subject: string; body: string; kind: string };
export type OutboxEntry = Message & { id: string; createdAt: string };

/** Sends email and text messages (confirmations, one-time codes). */
export interface Notifier {
  readonly kind: "outbox" | "smtp";
  send(message: Message): Promise<{ id: string }>;
  /** Newest first; only the outbox keeps what it sent. */
  recent(limit: number): Promise<OutboxEntry[]>;
}

/**
 * The embedded default: messages go to an outbox table (shown on a development page) and a line in
 * the server log that names the message, never its recipient or content.
 */
export function createOutboxNotifier(file: string): Notifier & { close(): void } {
  if (file !== ":memory:") preparePrivateFile(file);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec(`CREATE TABLE IF NOT EXISTS outbox (
    id TEXT PRIMARY KEY, channel TEXT NOT NULL, recipient TEXT NOT NULL, subject TEXT NOT NULL,
    body TEXT NOT NULL, kind TEXT NOT NULL, created_at TEXT NOT NULL
  )`);
  return {
    kind: "outbox",
    async send(message) {
      const id = randomUUID();
      db.prepare(
        "INSERT INTO outbox (id, channel, recipient, subject, body, kind, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ).run(id, message.channel, message.to, message.subject, message.body, message.kind, new Date().toISOString());
      logger.info("message queued in outbox", { id, channel: message.channel, kind: message.kind });
      return { id };
    },
    async recent(limit) {
      const rows = db.prepare("SELECT * FROM outbox ORDER BY created_at DESC, rowid DESC LIMIT ?").all(limit) as {
        id: string;
        channel: "email" | "sms";
        recipient: string;
        subject: string;
        body: string;
        kind: string;
        created_at: string;
      }[];
      return rows.map((r) => ({
        id: r.id,
        channel: r.channel,
        to: r.recipient,
        subject: r.subject,
        body: r.body,
        kind: r.kind,
        createdAt: r.created_at,
      }));
    },
    close: () => db.close(),
  };
}
