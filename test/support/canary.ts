// Canaries for leak checks: every token the test sandbox issues starts with the prefix, and the test partner's
// secret is unmistakable, so an answer, a log line or a stored value that holds either is a leak.
export const canaryTokenPrefix = 'CANARYTOKEN-';
export const canarySecret = 'CANARYSECRET-2f6b1c-do-not-leak';
