import { createContext, useContext } from "react";

/** The per-request CSP nonce; present while rendering on the server, empty in the browser. */
export const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
