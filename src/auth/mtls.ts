// Mutual TLS (`mutualTLS` schemes): Cloudflare verified the client
// certificate at the edge (request.cf.tlsClientAuth), optionally one of the
// listed SHA-256 fingerprints (AUTH_MTLS_FINGERPRINTS).
type TlsClientAuth = { certVerified?: string; certFingerprintSHA256?: string; certSubjectDN?: string };

/** The certificate's subject (or fingerprint), when the certificate passes; else undefined. */
export function certificateCaller(request: Request, fingerprints: ReadonlySet<string> | undefined): string | undefined {
  const cf = request.cf as { tlsClientAuth?: TlsClientAuth } | undefined;
  const auth = cf?.tlsClientAuth;
  if (auth?.certVerified !== "SUCCESS") return undefined;
  const fingerprint = auth.certFingerprintSHA256?.toLowerCase() ?? "";
  if (fingerprints && !fingerprints.has(fingerprint)) return undefined;
  return auth.certSubjectDN || fingerprint || "certificate";
}
