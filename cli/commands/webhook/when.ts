// A moment of the outbox (epoch milliseconds, or none) as the webhook listings print it.
export const when = (at: number | null): string => (at === null ? '-' : new Date(at).toISOString());
