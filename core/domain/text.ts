// Text a person can type: well-formed Unicode (no lone surrogate, which each database would
// store differently) and no control character (NUL included).
const unprintable = /[\u0000-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isPrintableText = (value: string): boolean => !unprintable.test(value);

// U+FFFD is what a lenient decoder puts in place of bytes that are not UTF-8 (a query
// string's %FF): in a name given to look something up, it is such bytes.
export const isDecodedCleanly = (value: string): boolean => isPrintableText(value) && !value.includes('\uFFFD');
