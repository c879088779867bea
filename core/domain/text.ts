// Text a person can type: well-formed Unicode (no lone surrogate, which each database would
// store differently) and no control character (NUL included).
const unprintable = /[\u0000-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isPrintableText = (value: string): boolean => !unprintable.test(value);
