// A CUIT is carried through the core as its 11 digits; the hyphenated form is only for display.

export type Cuit = string & { readonly __brand: 'Cuit' };

// docs/api.md, Endpoints and Writes: hyphens optional, no check-digit rule is stated so none is enforced.
export const cuitPattern = /^\d{2}-?\d{8}-?\d$/;

export const parseCuit = (input: string): Cuit | null => {

    if (!cuitPattern.test(input)) {
        return null;
    }

    return input.replace(/-/g, '') as Cuit;
};

export const formatCuit = (cuit: string): string => `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit.slice(10)}`;

const internals = {
    weights: [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
};

// Whether ARCA could have issued the CUIT: its last digit is the modulo-11 check of the other
// ten (a remainder that would give 10 is never issued: ARCA changes the prefix instead). The
// API accepts any 11 digits (SPEC), but a CUIT that fails this is never sent to ARCA as a login.
export const hasValidCheckDigit = (cuit: string): boolean => {

    if (!/^\d{11}$/.test(cuit)) {
        return false;
    }

    const sum = internals.weights.reduce((total, weight, index) => total + weight * Number(cuit[index]), 0);
    const check = (11 - sum % 11) % 11;
    return check !== 10 && check === Number(cuit[10]);
};
