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
