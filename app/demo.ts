import { randomUUID } from 'node:crypto';
import type { ClientType } from '../core/domain/client.js';
import { displayName, sortKey } from '../core/domain/client.js';
import type { Cuit } from '../core/domain/cuit.js';
import type { Ports } from '../core/ports/index.js';
import { createAccount } from '../core/use-cases/staff/create-account.js';
import { createToken } from '../core/use-cases/staff/create-token.js';
import { createUser } from '../core/use-cases/staff/create-user.js';

// The embedded demo: one account with API writing, its owner, a fresh token each start (a
// token is only ever shown once) and a small portfolio.

const internals = {
    email: 'demo@arcasync.local',
    clients: [
        { cuit: '20123456786', tipo: 'persona-fisica', nombre: 'María', apellido: 'González' },
        { cuit: '27234567891', tipo: 'persona-fisica', nombre: 'Juan', apellido: 'Pérez' },
        { cuit: '30712345671', tipo: 'persona-juridica', razonSocial: 'Panadería La Espiga SRL' }
    ] as const satisfies readonly { cuit: string; tipo: ClientType; nombre?: string; apellido?: string; razonSocial?: string }[]
};

export const seedDemo = async (ports: Ports): Promise<{ accountId: number; email: string; token: string }> => {

    let user = await ports.users.findByEmail(internals.email);
    if (!user) {
        const account = await createAccount(ports, { name: 'Estudio de demostración', writingEnabled: true });
        await createUser(ports, { accountId: account.id, email: internals.email, role: 'owner' });
        user = (await ports.users.findByEmail(internals.email))!;
        const now = ports.clock.now().getTime();
        for (const client of internals.clients) {
            const names = { nombre: null, apellido: null, razonSocial: null, ...client };
            const name = displayName(names);
            await ports.clients.insert({
                publicId: randomUUID(),
                accountId: account.id,
                cuit: client.cuit as Cuit,
                tipo: client.tipo,
                nombre: names.nombre,
                apellido: names.apellido,
                razonSocial: names.razonSocial,
                representativeId: null,
                displayName: name,
                sortName: sortKey(name),
                email: null,
                telefono: null,
                sealedKey: null,
                createdAt: now
            });
        }
    }

    const { token } = await createToken(ports, { userId: user.id, name: 'demo' });
    return { accountId: user.accountId, email: internals.email, token };
};
