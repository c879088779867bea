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
import { assignTag } from '../core/use-cases/staff/assign-tag.js';
import { createTag } from '../core/use-cases/staff/create-tag.js';
import { setPassword } from '../core/use-cases/staff/set-password.js';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { connect } from '../adapters/knex/connection.js';
import { databaseOwner } from '../adapters/knex/ownership.js';
import type { Config } from './config.js';
import { databaseLabel, sqliteFileOf } from './config.js';
import { databaseLog } from './logger.js';
import { assertSecretKeyConfigured } from './secret-keys.js';
import { operatorMessages } from './messages.js';

// The embedded demo (`npm start`): one account with API writing, its owner, a fresh
// token and sign-in password each start (shown once, like any token; the password signs in
// to the panel and the OAuth page), a small portfolio created the way the API creates clients
// (keys sealed, first synchronization enqueued) and a few tags on it. The simulated authority
// accepts most of these keys; two are there to fail, so the panel opens on every light.

const internals = {
    email: 'demo@arcasync.local',
    clients: [
        { tipo: 'persona-fisica', cuit: '20-12345678-6', nombre: 'María', apellido: 'González', clave_arca: 'demo-clave-maria', email: 'maria@example.com' },
        { tipo: 'persona-fisica', cuit: '27-23456789-1', nombre: 'Juan', apellido: 'Pérez', clave_arca: 'demo-clave-juan' },
        { tipo: 'persona-fisica', cuit: '20-34567890-3', nombre: 'Lucía', apellido: 'Fernández', clave_arca: 'demo-clave-lucia' },
        { tipo: 'persona-juridica', cuit: '30-71234567-1', razon_social: 'Panadería La Espiga SRL', representante: '20-12345678-6' },
        // The answers (docs/answers.md): the simulated authority bills one at 87 % of H's cap and
        // one at 120 % of C's (adapters/authority/simulated/data.ts, answerTaxpayers), so
        // GET /v1/monotributo and listar_cuits have someone near and someone past the cap.
        { tipo: 'persona-fisica', cuit: '20-41000001-7', nombre: 'Andrea', apellido: 'Sánchez', clave_arca: 'demo-clave-andrea' },
        { tipo: 'persona-fisica', cuit: '27-41000003-8', nombre: 'Carla', apellido: 'Medina', clave_arca: 'demo-clave-carla' },
        // What the panel's semáforo is for: the simulated authority refuses a key beginning
        // with 'mala' (someone must load the right one: red) and asks for a CAPTCHA for one
        // beginning with 'captcha' (retried later by itself: amber). Neither finishes its first
        // synchronization, so both wait under "Otros".
        { tipo: 'persona-fisica', cuit: '20-45678901-4', nombre: 'Sofía', apellido: 'Gómez', clave_arca: 'mala-clave-sofia' },
        { tipo: 'persona-fisica', cuit: '27-56789012-6', nombre: 'Tomás', apellido: 'Ruiz', clave_arca: 'captcha-clave-tomas' }
    ],
    tags: [
        { name: 'Monotributo', color: '#2e7d32', cuits: ['20123456786', '27234567891', '20410000017', '27410000038'] },
        { name: 'Sociedades', color: '#1565c0', cuits: ['30712345671'] },
        { name: 'Clientes nuevos', color: '#ef6c00', cuits: ['20345678903', '20456789014', '27567890126'] }
    ],

    // Whether the demo process that claimed the database still runs. A claim from another
    // machine (or a container since renamed) cannot be checked and is taken as left over.
    alive(claim: string): boolean {

        const [host, pid] = claim.split(' ');
        if (host !== hostname() || Number(pid) === process.pid) {
            return false;
        }

        try {
            process.kill(Number(pid), 0);
            return true;
        }
        catch (err) {
            return (err as { code?: unknown }).code === 'EPERM';
        }
    },

    // The port the demo will listen on, free now (EADDRINUSE otherwise, which the CLI names).
    async portFree(host: string, port: number): Promise<void> {

        if (port === 0) {
            return;
        }

        await new Promise<void>((resolve, reject) => {

            const probe = createServer();
            probe.once('error', reject);
            probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
        });
    }
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

interface DemoSeed {
    accountId: number;
    email: string;
    password: string;                  // the owner's sign-in password (OAuth consent page)
    token: string;
    cuits: string[];
    created: boolean;
    from: string;                      // the last twelve months, for the curl examples
    to: string;
}

const seedDemo = async (ports: Ports): Promise<DemoSeed> => {

    let user = await ports.users.findByEmail(internals.email);
    const created = !user;
    if (!user) {
        const account = await createAccount(ports, { name: 'Estudio de demostración', writingEnabled: true });
        // Found by id: findByEmail finds who signs in, and the password comes below.
        const { id } = await createUser(ports, { accountId: account.id, email: internals.email, role: 'owner' });
        user = (await ports.users.findById(id))!;
        const principal = (await principalOfUser(ports, user.id))!;
        for (const client of internals.clients) {
            await createClient(ports, principal, client);
        }

        for (const tag of internals.tags) {
            await createTag(ports, { accountId: account.id, name: tag.name, color: tag.color });
            for (const cuit of tag.cuits) {
                await assignTag(ports, { accountId: account.id, cuit, name: tag.name });
            }
        }
    }

    const password = `demo-${randomBytes(6).toString('hex')}`;
    await setPassword(ports, { userId: user.id, password });
    const { token } = await createToken(ports, { userId: user.id, name: 'demo' });
    const now = ports.clock.now();
    const from = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), now.getUTCDate() + 1));
    return {
        accountId: user.accountId,
        email: internals.email,
        password,
        token,
        cuits: internals.clients.map((client) => client.cuit.replace(/-/g, '')),
        created,
        from: formatDate(from),
        to: formatDate(now)
    };
};

// Everything the demo can check before it writes anything (npm start is everyone's reflex,
// pointed at whatever DATABASE_URL says): the key, that the database is empty or the demo's
// own (read without migrating it), and that the port is free. Throws one Spanish line.
export const checkDemo = async (config: Config, listen: { host: string; port: number }): Promise<void> => {

    assertSecretKeyConfigured(config);
    const file = sqliteFileOf(config.databaseUrl);
    if (!file || existsSync(file)) {
        const knex = connect(config.databaseUrl, {}, databaseLog(config.logLevel));
        try {
            if (await databaseOwner(knex) === 'other') {
                throw new Error(operatorMessages.demoForeignDatabase(databaseLabel(config.databaseUrl), config.embedded));
            }
        }
        finally {
            await knex.destroy();
        }
    }

    await internals.portFree(listen.host, listen.port);
};

export interface DemoRun {
    demo: DemoSeed;
    first: SyncNowSummary;
    serving: Serving;
}

// `npm start`: seed, a first synchronization to the end, then the API with a worker beside it.
// The authority is the simulated one, in this process unless AUTHORITY_URL names one.
export const startDemo = async (app: App, options: { host?: string; port?: number; onProgress?: (progress: SyncProgress) => void }): Promise<DemoRun> => {

    const claimed = await app.ports.installation.demoProcess();
    if (claimed && internals.alive(claimed)) {
        const [host, pid] = claimed.split(' ');
        throw new Error(operatorMessages.demoRunning(`proceso ${pid} en ${host}`));
    }

    const claim = `${hostname()} ${process.pid}`;
    // Its clients' keys are made up: the database never reaches the real authority.
    await app.ports.installation.markSimulated();
    await app.ports.installation.claimDemo(claim);
    const release = () => app.ports.installation.releaseDemo(claim);
    try {
        const demo = await seedDemo(app.ports);
        const first = await syncNow(app, { clientIds: null, concurrency: 4, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
        const serving = await startServing(app, {
            ...(options.host ? { host: options.host } : {}),
            ...(options.port === undefined ? {} : { port: options.port }),
            worker: { concurrency: 4 },
            metrics: false
        });
        return {
            demo,
            first,
            serving: {
                url: serving.url,
                async stop() {

                    await release().catch(() => undefined);
                    await serving.stop();
                }
            }
        };
    }
    catch (err) {
        await release().catch(() => undefined);
        throw err;
    }
};
