import { expect } from 'chai';
import type { Principal, Role, SubscriptionState } from '../../core/domain/access.js';
import { keepsAnOwner } from '../../core/domain/access.js';
import type { ClientRecord } from '../../core/domain/client.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { keyIdentity } from '../../core/domain/key-identity.js';
import { DomainError } from '../../core/domain/errors.js';
import type { Notification } from '../../core/domain/notification.js';
import { defaultRateLimits } from '../../core/domain/rate-limit.js';
import type { RateLimits } from '../../core/domain/rate-limit.js';
import { argentineHolidays } from '../../adapters/holidays/argentina.js';
import type { CapLevel, CategoryTable, InvoiceAmountRow } from '../../core/domain/monotributo.js';
import { billingTypes, monthlyTotals, signOf } from '../../core/domain/monotributo.js';
import { publishedTables } from '../../core/domain/monotributo-tables.js';
import type {
    AccountRecord,
    AccountRepository,
    AnswersRepository,
    CalendarFeedRepository,
    ClientImportRepository,
    ClientRepository,
    InvitationRecord,
    InvitationRepository,
    NewClient,
    PendingImport,
    Ports,
    RateLimitCounter,
    SecretBox,
    TokenRepository,
    UserRecord,
    UserRepository
} from '../../core/ports/index.js';
import type { JobQueue, SyncReason } from '../../core/ports/job-queue.js';
import type { SyncState } from '../../core/ports/repositories.js';
import type { ClientWork, InvoiceStore, OutboxEvent, SystemChanges, UnitOfWork } from '../../core/ports/unit-of-work.js';
import { withSystemWrites } from '../../core/use-cases/sync/system-writes.js';

// The ports the core's rules need, as plain objects over arrays: unit tests of the use cases
// (core/use-cases) run on these instead of a database. Each fake keeps the promise its port's
// comment makes (core/ports); a port or method a test did not need throws, naming itself, so a
// test never passes on a silent stand-in. What only SQL can show (the knex adapters' own
// rules, both databases) stays in the suites that start a server.

interface MemoryJob {
    id: number;
    clientId: number;
    reason: SyncReason;
    status: 'pending';
    runAfter: number;
    attempts: number;
    createdAt: number;
}

interface MemoryWorld {
    accounts: AccountRecord[];
    users: (UserRecord & { clients: Set<number> })[];
    tokens: { id: number; userId: number; tokenHash: string; revoked: boolean; lastUsedAt: number | null }[];
    clients: (ClientRecord & { sealedKey: string | null; sortName: string })[];
    jobs: MemoryJob[];
    // Requests counted per user and window start (Unix seconds).
    counts: Map<string, number>;
    // The monotributo's category tables (the repository's four to begin with), and how many
    // times a cap check read them through the unit of work.
    categoryTables: CategoryTable[];
    categoryTableReads: number;
    // Invoices as the answers read them: month, kind, type, importe in pesos, IVA in pesos (a
    // save's also by their natural key, which a save again replaces).
    invoices: (InvoiceAmountRow & { clientId: number; iva: number; key?: string })[];
    // Each monotributista's cap level, as the last check left it.
    capLevels: Map<number, { level: CapLevel; previousLevel: CapLevel; facturado: number; tope: number | null }>;
    calendarFeeds: { userId: number; tokenHash: string }[];
    // The team's: password hashes by user, invitation links, the users whose OAuth store
    // entries (panel sessions, grants) were revoked, and throttle counts by subject and window.
    passwords: Map<number, string>;
    invitations: (InvitationRecord & { tokenHash: string })[];
    oauthRevoked: number[];
    throttled: Map<string, number>;
    // The unit of work's (core/ports/unit-of-work.ts): the accounts with an active webhook
    // endpoint, the outbox, what the sync's writes changed and each client's sync states.
    listening: Set<number>;
    events: (OutboxEvent & { clientId: number; at: number })[];
    changes: (SystemChanges & { clientId: number })[];
    syncStates: (SyncState & { clientId: number })[];
    // Each client's DFE notifications, as a sync would have stored them.
    notifications: Map<number, Notification[]>;
    // Imports waiting for confirmation (sealed).
    imports: PendingImport[];
}

interface MemoryClock {
    now(): Date;
    set(iso: string): void;
    advance(ms: number): void;
}

export interface MemoryPorts {
    ports: Ports;
    world: MemoryWorld;
    clock: MemoryClock;
    // The principal of a user as a token lookup answers it (the account's flags of now).
    principalOf(userId: number): Principal;
    // A new account with its owner; `member` adds a member of the same account.
    account(options?: { writing?: boolean; subscription?: SubscriptionState }): Principal;
    member(accountId: number): Principal;
}

const internals = {
    // A sealed value that says it is sealed and opens to the original; the real box is tested in
    // secret-box.test.ts.
    secretBox: {
        keyId: 'memoria',
        seal: (plaintext: string) => `sellada:${Buffer.from(plaintext).toString('base64')}`,
        open(sealed: string) {

            if (!sealed.startsWith('sellada:')) {
                throw new Error('not sealed');
            }

            return Buffer.from(sealed.slice('sellada:'.length), 'base64').toString();
        },
        keyIdOf: (sealed: string) => (sealed.startsWith('sellada:') ? 'memoria' : null)
    } satisfies SecretBox,

    // A port whose methods the fake does not implement: calling one fails the test, naming it.
    partial<T extends object>(name: string, implemented: Partial<T>): T {

        return new Proxy(implemented, {
            get(target, property) {

                if (property in target || typeof property === 'symbol' || property === 'then') {
                    return (target as Record<string | symbol, unknown>)[property];
                }

                throw new Error(`${name}.${String(property)} is not in the in-memory fake (test/support/memory-ports.ts)`);
            }
        }) as T;
    }
};

export const memoryPorts = (options: { rateLimits?: RateLimits; now?: string } = {}): MemoryPorts => {

    let now = Date.parse(options.now ?? '2026-03-15T12:00:00Z');
    const clock: MemoryClock = {
        now: () => new Date(now),
        set(iso) {

            now = Date.parse(iso);
        },
        advance(ms) {

            now += ms;
        }
    };

    const world: MemoryWorld = {
        accounts: [], users: [], tokens: [], clients: [], jobs: [], imports: [],
        counts: new Map(), listening: new Set(), events: [], changes: [], syncStates: [],
        capLevels: new Map(),
        notifications: new Map(),
        categoryTables: publishedTables.map((table) => ({ ...table, topes: { ...table.topes } })), categoryTableReads: 0, invoices: [], calendarFeeds: [],
        passwords: new Map(), invitations: [], oauthRevoked: [], throttled: new Map()
    };
    const nextId = (rows: readonly { id: number }[]): number => rows.reduce((max, row) => Math.max(max, row.id), 0) + 1;

    // A new job as pendingJobRow (adapters/knex/pending-job.ts) stores it: pending, no attempt.
    const pendingJob = (clientId: number, reason: SyncReason, at: number): number => {

        const id = nextId(world.jobs);
        world.jobs.push({ id, clientId, reason, status: 'pending', runAfter: at, attempts: 0, createdAt: at });
        return id;
    };

    const principalOf = (userId: number): Principal => {

        const user = world.users.find((row) => row.id === userId)!;
        const account = world.accounts.find((row) => row.id === user.accountId)!;
        return {
            userId,
            accountId: account.id,
            role: user.role,
            writingEnabled: account.writingEnabled,
            subscription: account.subscription,
            dataVersion: 0
        };
    };

    // ClientRepository.findVisible's rule: an owner sees every client of its account, a member
    // those assigned to it.
    const visible = (principal: Pick<Principal, 'accountId' | 'userId' | 'role'>, client: ClientRecord): boolean => {

        if (client.accountId !== principal.accountId) {
            return false;
        }

        return principal.role === 'owner' || Boolean(world.users.find((row) => row.id === principal.userId)?.clients.has(client.id));
    };

    const record = (client: MemoryWorld['clients'][number]): ClientRecord => {

        const { sealedKey: _sealedKey, sortName: _sortName, ...rest } = client;
        return { ...rest };
    };

    const accounts = internals.partial<AccountRepository>('accounts', {
        async create(input) {

            const id = nextId(world.accounts);
            world.accounts.push({ id, ...input });
            return id;
        },
        async findById(id) {

            return world.accounts.find((row) => row.id === id) ?? null;
        },
        async update(id, changes) {

            const account = world.accounts.find((row) => row.id === id);
            if (!account) {
                return false;
            }

            Object.assign(account, changes);
            return true;
        }
    });

    const users = internals.partial<UserRepository>('users', {
        async create(input) {

            // The database's unique addresses: one per account, one sign-in.
            const taken = world.users.some((row) => row.email === input.email
                && (row.accountId === input.accountId || (input.passwordHash !== null && world.passwords.has(row.id))));
            if (taken) {
                return null;
            }

            const id = nextId(world.users);
            world.users.push({ id, accountId: input.accountId, email: input.email, role: input.role, clients: new Set() });
            if (input.passwordHash !== null) {
                world.passwords.set(id, input.passwordHash);
            }

            return id;
        },
        async findById(id) {

            const user = world.users.find((row) => row.id === id);
            return user ? { id: user.id, accountId: user.accountId, email: user.email, role: user.role } : null;
        },
        async findByEmail(email) {

            const user = world.users.find((row) => row.email === email && world.passwords.has(row.id));
            return user ? { id: user.id, accountId: user.accountId, email: user.email, role: user.role } : null;
        },
        async findPrincipal(id) {

            return world.users.some((row) => row.id === id) ? principalOf(id) : null;
        },
        async assignClients(userId, clientIds) {

            const user = world.users.find((row) => row.id === userId);
            for (const clientId of clientIds) {
                user?.clients.add(clientId);
            }
        },
        async unassignClients(userId, clientIds) {

            const user = world.users.find((row) => row.id === userId);
            for (const clientId of clientIds) {
                user?.clients.delete(clientId);
            }
        },
        async listByAccount(accountId) {

            return world.users.filter((row) => row.accountId === accountId)
                .map((user) => ({ id: user.id, accountId: user.accountId, email: user.email, role: user.role }));
        },
        async listTeam(accountId) {

            return world.users.filter((row) => row.accountId === accountId).map((user) => ({
                id: user.id, accountId: user.accountId, email: user.email, role: user.role,
                assignedCount: user.clients.size, pending: !world.passwords.has(user.id)
            }));
        },
        async assignedCuits(userId) {

            const assigned = world.users.find((row) => row.id === userId)?.clients ?? new Set();
            return world.clients.filter((client) => assigned.has(client.id)).map((client) => client.cuit).sort();
        },
        // The repository's promise: the rule applied to the account's users as they are.
        async setRole(id, role) {

            const user = world.users.find((row) => row.id === id);
            if (!user) {
                return 'absent';
            }

            if (!keepsAnOwner(world.users.filter((row) => row.accountId === user.accountId), { userId: id, role })) {
                return 'last_owner';
            }

            user.role = role;
            return 'changed';
        },
        async remove(id) {

            const user = world.users.find((row) => row.id === id);
            if (!user) {
                return 'absent';
            }

            if (!keepsAnOwner(world.users.filter((row) => row.accountId === user.accountId), { userId: id, role: null })) {
                return 'last_owner';
            }

            world.users = world.users.filter((row) => row !== user);
            world.tokens = world.tokens.filter((row) => row.userId !== id);
            world.invitations = world.invitations.filter((row) => row.userId !== id);
            world.passwords.delete(id);
            return 'removed';
        }
    });

    const invitations: InvitationRepository = {
        async create(input) {

            world.invitations = world.invitations.filter((row) => row.userId !== input.userId);
            const row = { id: nextId(world.invitations), userId: input.userId, tokenHash: input.tokenHash, expiresAt: input.expiresAt, usedAt: null };
            world.invitations.push(row);
        },
        async find(tokenHash) {

            const found = world.invitations.find((row) => row.tokenHash === tokenHash);
            return found ? { id: found.id, userId: found.userId, expiresAt: found.expiresAt, usedAt: found.usedAt } : null;
        },
        async use(id, at) {

            const found = world.invitations.find((row) => row.id === id && row.usedAt === null);
            if (found) {
                found.usedAt = at;
            }

            return Boolean(found);
        }
    };

    const tokens = internals.partial<TokenRepository>('tokens', {
        async create(input) {

            const id = nextId(world.tokens);
            world.tokens.push({ id, userId: input.userId, tokenHash: input.tokenHash, revoked: false, lastUsedAt: null });
            return id;
        },
        async findById(id) {

            const token = world.tokens.find((row) => row.id === id);
            return token ? { id: token.id, userId: token.userId, name: null, hint: '', createdAt: 0, revokedAt: token.revoked ? 1 : null, lastUsedAt: token.lastUsedAt } : null;
        },
        async revoke(id) {

            const token = world.tokens.find((row) => row.id === id && !row.revoked);
            if (token) {
                token.revoked = true;
            }

            return Boolean(token);
        },
        async findPrincipal(tokenHash, cuit) {

            const token = world.tokens.find((row) => row.tokenHash === tokenHash && !row.revoked);
            if (!token) {
                return null;
            }

            const principal = { ...principalOf(token.userId), apiToken: { id: token.id, lastUsedAt: token.lastUsedAt } };
            if (cuit === undefined) {
                return principal;
            }

            const client = world.clients.find((row) => row.cuit === cuit && visible(principal, row));
            return { ...principal, named: { cuit, client: client ? record(client) : null } };
        },
        async recordUse(id, at) {

            const token = world.tokens.find((row) => row.id === id);
            if (token && (token.lastUsedAt === null || token.lastUsedAt < at)) {
                token.lastUsedAt = at;
            }
        }
    });

    const insertClient = (client: NewClient): MemoryWorld['clients'][number] | null => {

        if (world.clients.some((row) => row.accountId === client.accountId && row.cuit === client.cuit)) {
            return null;
        }

        const row = {
            id: nextId(world.clients),
            publicId: client.publicId,
            accountId: client.accountId,
            cuit: client.cuit,
            tipo: client.tipo,
            nombre: client.nombre,
            apellido: client.apellido,
            razonSocial: client.razonSocial,
            representativeId: client.representativeId,
            displayName: client.displayName,
            sortName: client.sortName,
            email: client.email,
            telefono: client.telefono,
            monotributista: null,
            autonomo: null,
            categoria: null,
            dataVersion: 1,
            sealedKey: client.sealedKey
        };
        world.clients.push(row);
        return row;
    };

    const clients = internals.partial<ClientRepository>('clients', {
        async insert(client) {

            const row = insertClient(client);
            return row ? record(row) : null;
        },
        async create(client, createOptions) {

            if (client.representativeId !== null && !world.clients.some((row) => row.id === client.representativeId)) {
                return { status: 'representative_gone' };
            }

            const row = insertClient(client);
            if (!row) {
                return { status: 'duplicate' };
            }

            pendingJob(row.id, 'first', client.createdAt);
            if (createOptions.managerUserId !== null) {
                world.users.find((user) => user.id === createOptions.managerUserId)?.clients.add(row.id);
            }

            return { status: 'created', client: record(row) };
        },
        async update(id, changes) {

            const row = world.clients.find((client) => client.id === id);
            if (!row) {
                return { status: 'absent' };
            }

            if (changes.representativeId !== undefined && !world.clients.some((client) => client.id === changes.representativeId)) {
                return { status: 'representative_gone' };
            }

            Object.assign(row, changes, { dataVersion: row.dataVersion + 1 });
            return { status: 'updated', client: record(row) };
        },
        async delete(id) {

            if (!world.clients.some((client) => client.id === id)) {
                return 'absent';
            }

            if (world.clients.some((client) => client.representativeId === id)) {
                return 'represents';
            }

            world.clients = world.clients.filter((client) => client.id !== id);
            world.jobs = world.jobs.filter((job) => job.clientId !== id);
            for (const user of world.users) {
                user.clients.delete(id);
            }

            return 'deleted';
        },
        async findVisible(principal, cuit) {

            const row = world.clients.find((client) => client.cuit === cuit && visible(principal, client));
            return row ? record(row) : null;
        },
        async findInAccount(accountId, cuit) {

            const row = world.clients.find((client) => client.accountId === accountId && client.cuit === cuit);
            return row ? record(row) : null;
        },
        async findManyInAccount(principal, cuits) {

            return world.clients.filter((client) => client.accountId === principal.accountId && cuits.includes(client.cuit))
                .map((client) => ({ id: client.id, cuit: client.cuit, tipo: client.tipo, visible: visible(principal, client) }));
        },
        async createMany(many, createOptions) {

            const created: ClientRecord[] = [];
            const skipped: { cuit: NewClient['cuit']; reason: 'duplicate' | 'representative_gone' }[] = [];
            for (const client of many) {
                const outcome = await clients.create(client, createOptions);
                if (outcome.status === 'created') {
                    created.push(outcome.client);
                }
                else {
                    skipped.push({ cuit: client.cuit, reason: outcome.status });
                }
            }

            return { created, skipped };
        }
    });

    // Pending imports: sealed rows by public id, taken once.
    const clientImports = internals.partial<ClientImportRepository>('clientImports', {
        async save(pending) {

            const mine = (row: typeof pending) => row.accountId === pending.accountId && row.userId === pending.userId;
            world.imports = world.imports.filter((row) => row.expiresAt > pending.createdAt && !mine(row));
            world.imports.push({ ...pending });
        },
        async take({ publicId, accountId, userId, now: at }) {

            const row = world.imports.find((one) => one.publicId === publicId && one.accountId === accountId && one.userId === userId && one.expiresAt > at);
            world.imports = world.imports.filter((one) => one !== row);
            return row?.sealedRows ?? null;
        }
    });

    const jobQueue = internals.partial<JobQueue>('jobQueue', {
        async enqueue(clientId, reason, at) {

            const pending = world.jobs.find((job) => job.clientId === clientId);
            if (pending) {
                return pending.id;
            }

            return pendingJob(clientId, reason, at);
        }
    });

    // RateLimitCounter's promise: both windows counted at once, a refused request not counted,
    // the month reported when both are over.
    const rateLimitCounter: RateLimitCounter = {
        async consume(userId, windows, limits) {

            const minuteKey = `${userId}:minute:${windows.minuteStart}`;
            const monthKey = `${userId}:month:${windows.monthStart}`;
            const minute = (world.counts.get(minuteKey) ?? 0) + 1;
            const month = (world.counts.get(monthKey) ?? 0) + 1;
            if (month > limits.perMonth) {
                return { allowed: false, exceeded: 'month' };
            }

            if (minute > limits.perMinute) {
                return { allowed: false, exceeded: 'minute' };
            }

            world.counts.set(minuteKey, minute);
            world.counts.set(monthKey, month);
            return { allowed: true, usage: { minute, month } };
        }
    };

    // AnswersRepository's promise over the world's invoices, summed by core's rule (monthlyTotals).
    const answers = internals.partial<AnswersRepository>('answers', {
        async categoryTables() {

            return [...world.categoryTables].sort((a, b) => a.vigenciaDesde.localeCompare(b.vigenciaDesde));
        },
        async saveCategoryTable(table) {

            const replaced = world.categoryTables.some((row) => row.vigenciaDesde === table.vigenciaDesde);
            world.categoryTables = [...world.categoryTables.filter((row) => row.vigenciaDesde !== table.vigenciaDesde), table];
            return replaced ? 'replaced' : 'created';
        },
        async monotributoMonths(principal, range, only) {

            const chosen = (client: { id: number; cuit: string }) => !only || ('clientId' in only ? client.id === only.clientId : only.cuits.includes(client.cuit as Cuit));
            return world.clients
                .filter((client) => visible(principal, client) && client.monotributista === true && chosen(client))
                .sort((a, b) => a.sortName.localeCompare(b.sortName) || a.id - b.id)
                .map((client) => ({
                    client: {
                        id: client.id, cuit: client.cuit, displayName: client.displayName, tipo: client.tipo,
                        monotributista: client.monotributista, categoria: client.categoria
                    },
                    months: monthlyTotals(world.invoices.filter((row) => row.clientId === client.id && row.mes >= range.desde && row.mes <= range.hasta))
                }));
        },
        async ivaTotals(clientId, range) {

            return world.invoices
                .filter((row) => row.clientId === clientId && row.mes >= range.desde && row.mes <= range.hasta)
                .map((row) => ({ mes: row.mes, kind: row.kind, tipo: row.tipo, iva: row.iva, cantidad: 1 }));
        }
    });

    const calendarFeeds: CalendarFeedRepository = {
        async replace(input) {

            world.calendarFeeds = [...world.calendarFeeds.filter((row) => row.userId !== input.userId), { userId: input.userId, tokenHash: input.tokenHash }];
        },
        async revoke(userId) {

            const before = world.calendarFeeds.length;
            world.calendarFeeds = world.calendarFeeds.filter((row) => row.userId !== userId);
            return world.calendarFeeds.length < before;
        },
        async findUserId(tokenHash) {

            return world.calendarFeeds.find((row) => row.tokenHash === tokenHash)?.userId ?? null;
        }
    };

    // UnitOfWork's promise: what the work wrote stays only when it returns (a throw puts the
    // outbox and the sync states back as they were). Only the outbox and the sync states are
    // kept in memory; a system's data is the knex stores' (both databases).
    const unitOfWork: UnitOfWork = {
        async transaction(clientId, work) {

            const saved = {
                events: [...world.events], changes: [...world.changes], syncStates: world.syncStates.map((state) => ({ ...state })),
                capLevels: new Map(world.capLevels),
                invoices: [...world.invoices]
            };
            const cuit = () => {

                const client = world.clients.find((row) => row.id === clientId);
                return client && world.listening.has(client.accountId) ? client.cuit : null;
            };

            const client: ClientWork = internals.partial<ClientWork>('unitOfWork', {
                exists: async () => world.clients.some((row) => row.id === clientId),
                keyOf: async () => null,
                registry: internals.partial<ClientWork['registry']>('unitOfWork.registry', {
                    // On the client's row; one record, new on its first sync, changed when it moved.
                    async save(classification, _syncedAt, count) {

                        const row = world.clients.find((entry) => entry.id === clientId)!;
                        const first = !world.syncStates.some((state) => state.clientId === clientId && state.system === 'registry' && state.syncedAt !== null);
                        const moved = (['monotributista', 'autonomo', 'categoria'] as const).some((field) => row[field] !== classification[field]);
                        Object.assign(row, classification);
                        return count ? { nuevos: first ? 1 : 0, cambiados: !first && moved ? 1 : 0, eliminados: 0 } : null;
                    }
                }),
                monotributo: {
                    async billing(range) {

                        const client = world.clients.find((row) => row.id === clientId);
                        if (client?.monotributista !== true) {
                            return null;
                        }

                        const [from, to] = [range.fromDate.slice(0, 7), range.toDate.slice(0, 7)];
                        const facturado = world.invoices
                            .filter((row) => row.clientId === clientId && row.kind === 'issued' && row.mes >= from && row.mes <= to)
                            .reduce((sum, row) => sum + signOf(billingTypes, row.tipo) * row.importe, 0);
                        // The fingerprint: the tables' content, whichever way a test changed them.
                        const tablesVersion = JSON.stringify([...world.categoryTables].sort((a, b) => a.vigenciaDesde.localeCompare(b.vigenciaDesde)));
                        return { categoria: client.categoria, facturado, level: world.capLevels.get(clientId)?.level ?? 0, tablesVersion };
                    },
                    async tables() {

                        world.categoryTableReads++;
                        return [...world.categoryTables];
                    },
                    async saveLevel(standing, previousLevel) {

                        world.capLevels.set(clientId, { level: standing.level, previousLevel, facturado: standing.facturado, tope: standing.tope });
                    }
                },
                outbox: {
                    listening: async () => cuit(),
                    async append(event, at, about = clientId) {

                        if (cuit() !== null) {
                            world.events.push({ ...event, clientId: about, at });
                        }
                    },
                    async changed(system, changes) {

                        if (cuit() !== null) {
                            const found = world.changes.find((entry) => entry.clientId === clientId && entry.system === system);
                            if (found) {
                                found.nuevos += changes.nuevos;
                                found.cambiados += changes.cambiados;
                                found.eliminados += changes.eliminados;
                            }
                            else {
                                world.changes.push({ clientId, system, ...changes });
                            }
                        }
                    },
                    lastKeyState: async () => null,
                    async takeChanges() {

                        const taken = world.changes.filter((entry) => entry.clientId === clientId);
                        world.changes = world.changes.filter((entry) => entry.clientId !== clientId);
                        return taken.map(({ clientId: _, ...entry }) => entry);
                    }
                },
                syncStates: {
                    get: async (system) => world.syncStates.find((state) => state.clientId === clientId && state.system === system),
                    async markSynced(system, at) {

                        world.syncStates = world.syncStates.filter((state) => state.clientId !== clientId || state.system !== system);
                        world.syncStates.push({ clientId, system, syncedAt: at, lastAttemptAt: at, lastError: null, lastState: null, failingSince: null });
                    },
                    async recordFailure(system, record) {

                        const previous = world.syncStates.find((state) => state.clientId === clientId && state.system === system);
                        world.syncStates = world.syncStates.filter((state) => state !== previous);
                        world.syncStates.push({
                            clientId,
                            system,
                            syncedAt: previous?.syncedAt ?? null,
                            lastAttemptAt: record.at,
                            lastError: record.error,
                            lastState: record.state ?? null,
                            failingSince: record.failingSince
                        });
                    }
                }
            });
            try {
                return await work(client);
            }
            catch (err) {
                Object.assign(world, saved);
                throw err;
            }
        }
    };

    // NotificationRepository's reads and marking: newest first; marking raises the client's
    // data version with it.
    const notifications = internals.partial<Omit<Ports['notifications'], 'save'>>('notifications', {
        async list(clientId, page) {

            const all = [...world.notifications.get(clientId) ?? []].sort((a, b) => b.fechaRecepcion.localeCompare(a.fechaRecepcion));
            return { items: all.slice(page.offset, page.offset + page.limit).map((item) => ({ ...item })), total: all.length };
        },
        async find(clientId, arcaId) {

            const found = world.notifications.get(clientId)?.find((item) => item.arcaId === arcaId);
            return found ? { ...found } : null;
        },
        async setRead(clientId, arcaId, at) {

            const client = world.clients.find((row) => row.id === clientId);
            if (client) {
                Object.assign(client, { dataVersion: client.dataVersion + 1 });
            }

            const found = world.notifications.get(clientId)?.find((item) => item.arcaId === arcaId);
            if (!found) {
                return null;
            }

            found.leidaAt = at === null ? null : found.leidaAt ?? new Date(at).toISOString();
            return { ...found };
        }
    });

    // InvoiceStore's promise: each invoice upserted by its natural key, the events given
    // appended (to an account that listens) and each kind's sync date, together.
    const invoices = internals.partial<InvoiceStore>('invoices', {
        async saveKinds(clientId, saves, syncedAt, events) {

            await unitOfWork.transaction(clientId, async (work) => {

                for (const { kind, invoices: saved } of saves) {
                    for (const invoice of saved) {
                        const key = [kind, kind === 'received' ? invoice.counterpart.numeroDocumento : '', invoice.tipo, invoice.puntoVenta, invoice.numeroDesde].join('|');
                        world.invoices = world.invoices.filter((row) => row.clientId !== clientId || row.key !== key);
                        const { tipo, importe } = invoice;
                        const row = { clientId, key, mes: invoice.fecha.slice(0, 7), kind, tipo, importe, iva: invoice.iva ?? 0 };
                        world.invoices.push(row);
                    }
                }

                for (const event of events) {
                    await work.outbox.append(event, syncedAt);
                }

                for (const { kind } of saves) {
                    await work.syncStates.markSynced(`${kind}_invoices`, syncedAt);
                }
            });
        }
    });

    const stored = withSystemWrites({
        unitOfWork,
        invoices,
        sct: internals.partial<Ports['sct']>('sct', {}),
        ccma: internals.partial<Ports['ccma']>('ccma', {}),
        notifications,
        syncStates: internals.partial<Ports['syncStates']>('syncStates', {
            list: async (clientId) => world.syncStates.filter((state) => state.clientId === clientId).map(({ clientId: _, ...state }) => state)
        })
    });

    const ports = internals.partial<Ports>('ports', {
        ...stored,
        answers,
        calendarFeeds,
        holidays: argentineHolidays,
        accounts,
        users,
        tokens,
        invitations,
        userCredentials: {
            passwordHash: async (userId) => world.passwords.get(userId) ?? null,
            async setPasswordHash(userId, hash) {

                const user = world.users.find((row) => row.id === userId);
                if (!user) {
                    return 'no-user';
                }

                // The database's unique sign-in address.
                if (world.users.some((row) => row.id !== userId && row.email === user.email && world.passwords.has(row.id))) {
                    return 'address-taken';
                }

                world.passwords.set(userId, hash);
                return 'set';
            }
        },
        // Only what ends a user's sessions and grants: which users it was asked for.
        oauthStore: internals.partial<Ports['oauthStore']>('oauthStore', {
            async revokeAccount(accountId) {

                world.oauthRevoked.push(Number(accountId));
                return 0;
            }
        }),
        throttles: {
            async tryCount(subject, windowStart, limit) {

                const key = `${subject}@${windowStart}`;
                const count = world.throttled.get(key) ?? 0;
                if (count >= limit) {
                    return false;
                }

                world.throttled.set(key, count + 1);
                return true;
            },
            async giveBack(subject, windowStart) {

                const key = `${subject}@${windowStart}`;
                world.throttled.set(key, Math.max(0, (world.throttled.get(key) ?? 0) - 1));
            }
        },
        clients,
        clientImports,
        jobQueue,
        rateLimitCounter,
        rateLimits: options.rateLimits ?? defaultRateLimits,
        // Always answers: outages are database-outage.test.ts's.
        database: { ping: async () => undefined, failureOf: () => null },
        readCache: { get: () => undefined, set: (_key, _version, value) => value },
        clock,
        secretBox: internals.secretBox,
        // The real rule (core/domain/key-identity.ts) under a fixed secret.
        keyIdentity: { ready: async () => undefined, of: async (loginCuit, plaintext) => keyIdentity(Buffer.alloc(32, 7), loginCuit, plaintext) }
    });

    const addUser = (accountId: number, role: Role): Principal => {

        const id = nextId(world.users);
        world.users.push({ id, accountId, email: `usuario${id}@example.com`, role, clients: new Set() });
        return principalOf(id);
    };

    return {
        ports,
        world,
        clock,
        principalOf,
        account(accountOptions = {}) {

            const id = nextId(world.accounts);
            world.accounts.push({
                id,
                name: `Estudio ${id}`,
                writingEnabled: accountOptions.writing ?? true,
                subscription: accountOptions.subscription ?? 'active',
                createdAt: now
            });
            return addUser(id, 'owner');
        },
        member: (accountId) => addUser(accountId, 'member')
    };
};

// The DomainError a use case throws: its kind and message are what every front end shows.
export const refusalOf = async (call: Promise<unknown>): Promise<DomainError> => {

    try {
        await call;
    }
    catch (err) {
        expect(err).to.be.instanceOf(DomainError);
        return err as DomainError;
    }

    expect.fail('the use case did not refuse');
};
