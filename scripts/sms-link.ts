// Prints a booking link a clinic can text to a known guest: npm run sms-link -- <centerId> <guestId>
// The link carries a signed guest token that expires after 7 days (SESSION_SECRETS signs it).
import { createLinkSigner } from "../server/booking/sms-link.server";
import { sessionSecrets } from "../server/compose.server";
import { parseEnv } from "../server/env.server";

const [centerId, guestId] = process.argv.slice(2);
if (!centerId || !guestId) {
  process.stderr.write("usage: npm run sms-link -- <centerId> <guestId>\n");
  process.exit(2);
}
const env = parseEnv();
const origin = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
const token = createLinkSigner(sessionSecrets(env)).sign(guestId, centerId);
process.stdout.write(`${origin}/appointment/service?id=${encodeURIComponent(centerId)}&guest=${token}\n`);
