import { randomUUID } from 'node:crypto';
import { displayName, sortKey } from '../domain/client.js';
import type { NewClientInput } from '../domain/client-input.js';
import type { NewClient, Ports } from '../ports/index.js';

// A client as the contract accepted it, ready to store: its names, display and sort names, and
// a person's key sealed with its identity. One shape for every creation (createClient, the
// import).
export const clientNames = (input: NewClientInput) => (input.tipo === 'persona-fisica'
    ? { nombre: input.nombre, apellido: input.apellido, razonSocial: null }
    : { nombre: null, apellido: null, razonSocial: input.razonSocial });

export const newClientOf = async (
    deps: Pick<Ports, 'secretBox' | 'keyIdentity'>, accountId: number, input: NewClientInput, representativeId: number | null, createdAt: number
): Promise<NewClient> => {

    const names = clientNames(input);
    const name = displayName({ tipo: input.tipo, ...names });
    return {
        publicId: randomUUID(),
        accountId,
        cuit: input.cuit,
        tipo: input.tipo,
        ...names,
        representativeId,
        displayName: name,
        sortName: sortKey(name),
        email: input.email,
        telefono: input.telefono,
        sealedKey: input.tipo === 'persona-fisica' ? deps.secretBox.seal(input.claveArca) : null,
        keyDigest: input.tipo === 'persona-fisica' ? await deps.keyIdentity.of(input.cuit, input.claveArca) : null,
        createdAt
    };
};
