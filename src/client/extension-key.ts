/**
 * The recorder's public key (manifest `key`, base64 DER SubjectPublicKeyInfo). Chrome derives an extension's
 * id from it, so every unpacked load (`--load-extension`, CDP `Extensions.loadUnpacked`) on every machine has
 * the same id, {@link RECORDER_EXTENSION_ID}. A `.crx` signed with another key gets that key's id instead.
 */
export const RECORDER_PUBLIC_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAuS/DlVTz3Tnd3+YLNc0j0fXnAN+gmbIPCZQtQXy4WXrG9DQ6Xq+e/XivD/fNXEz09zBgkHElrzjWg77rF6mRoEdDUWOGwD+h8hhAT/idCsr3GYDohRnCgVRRogn87VCNgqxRR9DRet+xT4+XU2vCrg3+7zTdP1sicL9soqpQYKbM5xPGiL5f/KIrNRYJR+fHUPPDGtwN3UgasJJ61p+ETtYRDdNW12gnT9veFY6BFgd3N6Ghuw/DFgbqBN7y+bJROmkyKxqKfe5yUfZ0Jv8xtzDCo8vXLzq7GulHdhTz6tD+QJZurXms5PWWY7LRaps6TwRsZanVSxUKQZjLCasCjQIDAQAB';

/** The id Chrome gives the recorder loaded unpacked: the first 16 bytes of sha256(key), hex digits mapped 0-f → a-p. */
export const RECORDER_EXTENSION_ID = 'jaaohpahabfabmkanbnjkhpfligimhfi';
