// A pragmatic address check: one @, no spaces, a dot in the domain. Deliverability is the
// mail server's business, not ours.
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Characters that show as nothing or as something else: controls, format characters (zero
// width spaces and joiners, bidi marks), separators, private use, unassigned. Refused when a
// user is created, so no two addresses look alike but differ.
const invisible = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Z}]/u;

export const isEmail = (value: string): boolean => value.length <= 254 && emailPattern.test(value) && !invisible.test(value);

// One form of an address for every comparison: what staff type when creating a user, what a
// person types to sign in, the throttle's key. NFKC makes fullwidth and composed/decomposed
// accents one; case is folded. Stored users are compared byte-wise to it on both databases
// (MySQL's column is utf8mb4_bin, migration 010): MySQL's accent- and width-insensitive
// collation named a user the throttle counted under another address.
export const normalizeEmail = (value: string): string => value.normalize('NFKC').trim().toLowerCase().normalize('NFKC');
