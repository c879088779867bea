// Spanish built from data, said right: a count with its noun (and verb) in the right number,
// and "de"/"a" joined with a phrase's "el" the way Spanish contracts them. Sentences that put a
// number or a labelled phrase in a template go through here, so none says "1 notas" or "de el".

// The word for a count: 1 takes the singular, every other count (0 too) the plural.
export const byCount = (count: number, one: string, many: string): string => (count === 1 ? one : many);

// "1 nota de crédito", "3 notas de crédito".
export const counted = (count: number, one: string, many: string): string => `${count} ${byCount(count, one, many)}`;

// "de" before "el domicilio…" is "del domicilio…", "a" before "el…" is "al…"; any other phrase
// keeps its preposition ("de la cuenta", "de los comprobantes"). Only the lowercase article
// contracts: "de El Salvador" stays as written.
export const preceded = (preposition: 'de' | 'a', phrase: string): string => (
    phrase.startsWith('el ') ? `${preposition === 'de' ? 'del' : 'al'} ${phrase.slice(3)}` : `${preposition} ${phrase}`
);

// The verb that agrees with a phrase named with its article: "los comprobantes … se actualizan",
// "la cuenta … se actualiza".
export const agreeing = (phrase: string, one: string, many: string): string => (/^(los|las) /.test(phrase) ? many : one);
