// Gives every guestDetails document in Firestore an emailKey, so that the ones the earlier client
// wrote are found whatever the case of the email typed (docs/decisions/012). Run once after the
// deploy that brings it, and again while the earlier client still writes guests:
// npm run firestore:guest-email-keys, with FIRESTORE_PROJECT_ID and FIRESTORE_CREDENTIALS_JSON set.
import { parseEnv } from "../server/env.server";
import { addGuestEmailKeys, connectFirestore } from "../server/store/firestore-store.server";

const env = parseEnv();
if (!env.FIRESTORE_PROJECT_ID || !env.FIRESTORE_CREDENTIALS_JSON) {
  process.stderr.write("FIRESTORE_PROJECT_ID and FIRESTORE_CREDENTIALS_JSON name the Firestore to update\n");
  process.exit(2);
}
const { db, close } = connectFirestore({
  projectId: env.FIRESTORE_PROJECT_ID,
  credentialsJson: env.FIRESTORE_CREDENTIALS_JSON,
});
try {
  const changed = await addGuestEmailKeys(db);
  process.stdout.write(`${changed} guestDetails documents given an emailKey\n`);
} finally {
  await close();
}
