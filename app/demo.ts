import type { App } from './compose.js';
import type { Serving } from './server.js';
import { startServing } from './server.js';
import type { SyncNowSummary, SyncProgress } from './worker.js';
import { syncNow } from './worker.js';
import { formatDate } from '../core/domain/time.js';
import type { Ports } from '../core/ports/index.js';
import { createClient } from '../core/use-cases/create-client.js';
import { principalOfUser } from '../core/use-cases/principal-of-user.js';
import { createAccount } from '../core/use-cases/staff/create-account.js';
import { createToken } from '../core/use-cases/staff/create-token.js';
import { createUser } from '../core/use-cases/staff/create-user.js';

// The embedded demo (DESIGN.md: `npm start`): one account with API writing, its owner, a fresh
// token each start (a token is only ever shown once) and a small portfolio created the way
// the API creates clients: keys sealed, first synchronization enqueued. The simulated
// authority accepts these keys.

const internals = {
    email: 'demo@arcasync.local',
    clients: [
        { tipo: 'persona-fisica', cuit: '20-12345678-6', nombre: 'María', apellido: 'González', clave_arca: 'demo-clave-maria', email: 'maria@example.com' },
        { tipo: 'persona-fisica', cuit: '27-23456789-1', nombre: 'Juan', apellido: 'Pérez', clave_arca: 'demo-clave-juan' },
        { tipo: 'persona-fisica', cuit: '20-34567890-3', nombre: 'Lucía', apellido: 'Fernández', clave_arca: 'demo-clave-lucia' },
        { tipo: 'persona-juridica', cuit: '30-71234567-1', razon_social: 'Panadería La Espiga SRL', representante: '20-12345678-6' }
    ]
};

// Who represents whom in the demo portfolio, for the in-process simulated authority.
export const demoRelations = (): Record<string, string[]> => {

    const relations: Record<string, string[]> = {};
    for (const client of internals.clients) {
        if ('representante' in client && client.representante) {
            (relations[client.representante.replace(/-/g, '')] ??= []).push(client.cuit.replace(/-/g, ''));
        }
    }

    return relations;
};

export interface DemoSeed {
    accountId: number;
    email: string;
    token: string;
    cuits: string[];
    created: boolean;
    from: string;                      // the last twelve months, for the curl examples
    to: string;
}

export const seedDemo = async (ports: Ports): Promise<DemoSeed> => {

    let user = await ports.users.findByEmail(internals.email);
    const created = !user;
    if (!user) {
        const account = await createAccount(ports, { name: 'Estudio de demostración', writingEnabled: true });
        await createUser(ports, { accountId: account.id, email: internals.email, role: 'owner' });
        user = (await ports.users.findByEmail(internals.email))!;
        const principal = (await principalOfUser(ports, user.id))!;
        for (const client of internals.clients) {
            await createClient(ports, principal, client);
        }
    }

    const { token } = await createToken(ports, { userId: user.id, name: 'demo' });
    const now = ports.clock.now();
    const from = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), now.getUTCDate() + 1));
    return {
        accountId: user.accountId,
        email: internals.email,
        token,
        cuits: internals.clients.map((client) => client.cuit.replace(/-/g, '')),
        created,
        from: formatDate(from),
        to: formatDate(now)
    };
};

export interface DemoRun {
    demo: DemoSeed;
    first: SyncNowSummary;
    serving: Serving;
}

// `npm start`: seed, a first synchronization to the end, then the API with a worker beside it.
// The authority is the simulated one, in this process unless AUTHORITY_URL names one.
export const startDemo = async (app: App, options: { host?: string; port?: number; onProgress?: (progress: SyncProgress) => void }): Promise<DemoRun> => {

    // Its clients' keys are made up: the database never reaches the real authority.
    await app.ports.installation.markSimulated();
    const demo = await seedDemo(app.ports);
    const first = await syncNow(app, { clientIds: null, concurrency: 4, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
    const serving = await startServing(app, { ...(options.host ? { host: options.host } : {}), ...(options.port === undefined ? {} : { port: options.port }), worker: { concurrency: 4 }, metrics: false });
    return { demo, first, serving };
};
