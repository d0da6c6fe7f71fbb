/**
 * One JSON line per event on stdout. Callers pass facts, never personal data: no emails, phone
 * numbers, names, card data, tokens or query strings (which may carry any of those).
 */
type Level = "debug" | "info" | "warn" | "error";
type Fields = Record<string, string | number | boolean | null | undefined>;

const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const configured = process.env.LOG_LEVEL as Level | undefined;
  if (configured && configured in order) return order[configured];
  return process.env.NODE_ENV === "test" ? order.error : order.info;
}

function write(level: Level, message: string, fields: Fields = {}) {
  if (order[level] < threshold()) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const logger = {
  debug: (message: string, fields?: Fields) => write("debug", message, fields),
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};

/** The path of a URL without its query string, safe to log. */
export function pathOnly(url: string): string {
  try {
    return new URL(url, "http://local").pathname;
  } catch {
    return "(unparseable url)";
  }
}
