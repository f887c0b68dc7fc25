/**
 * Query parameter names that carry a credential, by a part of the name or the whole: the redactor masks
 * their values, and a target file's URL may not carry them (config/url-rules.ts).
 */
export const CREDENTIAL_PARAMETER = /key|token|secret|passw|credential|signature|^(?:pwd|pw|pass|auth|authorization|sig)$/i;
