// Text the command line did not write itself (ARCA's error texts, names staff typed, URLs)
// reaches a terminal with its control characters shown, never obeyed: an ESC sequence could
// retitle the window, clear the screen or hide what follows, and a line break could forge a
// line of a listing. Every human output goes through here (outputFor's print, runCli's error
// line); --json output is JSON, where they travel escaped as \uXXXX.

const internals = {
    // C0 (line breaks and ESC included), DEL and C1 (U+009B is a one-character CSI to some terminals).
    controls: /[\u0000-\u001f\u007f-\u009f]/g,
    // C0 minus the line break, DEL and C1: what the CLI's own text never holds.
    controlsButNewline: /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g,
    // JSON.stringify escapes C0 only.
    jsonUnescaped: /[\u007f-\u009f]/g,

    names: { '\n': '\\n', '\r': '\\r', '\t': '\\t' } as Record<string, string>,

    shown: (char: string): string => internals.names[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`
};

// One value of data inside a line: every control character shown as `\x1b`, `\n`, …
export const visible = (value: string): string => value.replace(internals.controls, internals.shown);

// A whole text the CLI composed: its own line breaks stay, any other control character is shown.
export const terminalText = (text: string): string => text.replace(internals.controlsButNewline, internals.shown);

// A JSON line: DEL and C1, which JSON.stringify leaves raw, as \u escapes (still the same JSON).
export const jsonLine = (data: unknown): string => JSON.stringify(data).replace(
    internals.jsonUnescaped,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
);
