// A pragmatic address check: one @, no spaces, a dot in the domain. Deliverability is the
// mail server's business, not ours.
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string): boolean => value.length <= 254 && emailPattern.test(value);
