import { randomUUID } from 'node:crypto';
import type { ClientRecord, ClientType } from '../../core/domain/client.js';
import { displayName, sortKey } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { parseCuit } from '../../core/domain/cuit.js';
import type { Ports } from '../../core/ports/index.js';
import { assignTag } from '../../core/use-cases/staff/assign-tag.js';
import { createAccount } from '../../core/use-cases/staff/create-account.js';
import { createTag } from '../../core/use-cases/staff/create-tag.js';
import { createToken } from '../../core/use-cases/staff/create-token.js';
import { createUser } from '../../core/use-cases/staff/create-user.js';

// Accounts, users, tokens and clients set up through the same use cases and repositories the
// CLI and the sync use.

let sequence = 0;

export interface SeededUser {
    accountId: number;
    userId: number;
    token: string;
}

export const seedAccount = async (ports: Ports, options: { writing?: boolean; subscription?: string } = {}): Promise<SeededUser> => {

    sequence++;
    const { id: accountId } = await createAccount(ports, { name: `Estudio ${sequence}`, writingEnabled: options.writing ?? false, subscription: options.subscription ?? 'active' });
    return seedUser(ports, accountId, 'owner');
};

export const seedUser = async (ports: Ports, accountId: number, role: 'owner' | 'member'): Promise<SeededUser> => {

    sequence++;
    const { id: userId } = await createUser(ports, { accountId, email: `usuario${sequence}-${randomUUID().slice(0, 8)}@example.com`, role });
    const { token } = await createToken(ports, { userId });
    return { accountId, userId, token };
};

export interface ClientInput {
    cuit: string;
    tipo?: ClientType;
    nombre?: string;
    apellido?: string;
    razonSocial?: string;
    email?: string | null;
    telefono?: string | null;
    representativeId?: number | null;
    // A clave fiscal stored with it (sealed, with its identity); none when absent.
    claveArca?: string;
}

export const addClient = async (ports: Ports, accountId: number, input: ClientInput): Promise<ClientRecord> => {

    const tipo = input.tipo ?? 'persona-fisica';
    const names = tipo === 'persona-fisica'
        ? { nombre: input.nombre ?? 'Ana', apellido: input.apellido ?? 'García', razonSocial: null }
        : { nombre: null, apellido: null, razonSocial: input.razonSocial ?? 'Empresa SA' };
    const name = displayName({ tipo, ...names });
    const cuit = parseCuit(input.cuit) as Cuit;
    const key = input.claveArca === undefined
        ? { sealedKey: null, keyDigest: null }
        : { sealedKey: ports.secretBox.seal(input.claveArca), keyDigest: await ports.keyIdentity.of(cuit, input.claveArca) };
    const client = await ports.clients.insert({
        publicId: randomUUID(),
        accountId,
        cuit,
        tipo,
        ...names,
        representativeId: input.representativeId ?? null,
        displayName: name,
        sortName: sortKey(name),
        email: input.email ?? null,
        telefono: input.telefono ?? null,
        ...key,
        createdAt: Date.now()
    });

    if (!client) {
        throw new Error(`client ${input.cuit} already exists`);
    }

    return client;
};

// An owner with one client: what most read suites start from.
export const seedAccountWithClient = async (ports: Ports, cuit = '20123456786'): Promise<{ user: SeededUser; clientId: number; cuit: string }> => {

    const user = await seedAccount(ports);
    const client = await addClient(ports, user.accountId, { cuit });
    return { user, clientId: client.id, cuit };
};

// Tags the way staff manage them (the API cannot create them): create, then assign by name.
export const tagClient = async (ports: Ports, accountId: number, cuit: string, name: string, color = '#336699'): Promise<void> => {

    const page = await ports.tags.list(accountId, { limit: 100, offset: 0 });
    if (!page.items.some((tag) => tag.nombre === name)) {
        await createTag(ports, { accountId, name, color });
    }

    await assignTag(ports, { accountId, cuit, name });
};
