import { messages } from '../../../core/domain/messages.js';
import { systemNames } from '../../../core/domain/health.js';
import type { CuitHealthView } from '../../../core/use-cases/cuit-health.js';
import type { FleetLogins, KeyLogins, SyncStatusResult } from '../../../core/use-cases/sync/sync-status.js';
import { cliLabels, cliMessages, labelOf } from '../../messages.js';
import { visible } from '../../terminal-text.js';

// The sync's state in words: `sync status` and, for a key's logins today, `authority probe`.

const internals = {
    // The widest system label, so that what follows lines up.
    systemWidth: Math.max(...Object.values(cliLabels.system).map((label) => label.length)),

    count: (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`,

    // logins started, passwords posted and re-logins of one key or of all.
    counts(entry: { logins: number; passwordPosts: number; relogins: number }): string {

        return [
            internals.count(entry.logins, 'inicio de sesión', 'inicios de sesión'),
            internals.count(entry.passwordPosts, 'envío de la clave', 'envíos de la clave'),
            internals.count(entry.relogins, 'reingreso', 'reingresos')
        ].join(', ');
    },

    ended: (ended: KeyLogins['ended']): string => (ended
        ? ` Sin más ingresos hoy: ${messages.authority[ended.kind as keyof typeof messages.authority] ?? visible(ended.kind)} (${ended.at})`
        : ''),

    fleet: (logins: FleetLogins): string[] => [
        `Ingresos a ARCA hoy (${logins.day}): ${internals.count(logins.keys, 'clave', 'claves')}, ${internals.counts(logins)}; ${
            internals.count(logins.ended, 'clave', 'claves')} sin más ingresos hoy.`,
        ...logins.notable.map((entry) => `  clave de ${entry.keyCuit}: ${internals.counts(entry)}.${internals.ended(entry.ended)}`)
    ]
};

// A login key's day in the fleet's ledger (docs/scaling.md), for `sync status --cuit` and the probe.
export const describeKeyLogins = (entry: KeyLogins): string => `ingresos a ARCA hoy (${entry.day}) con la clave de ${entry.keyCuit}: ${
    internals.counts(entry)}.${internals.ended(entry.ended)}`;

// Each CUIT's health beside its systems (core/use-cases/cuit-health.ts): the state and what to do.
type StatusWithHealth = SyncStatusResult & { clients?: { clientId: number; estado?: CuitHealthView | null }[] };

export const describeStatus = (result: StatusWithHealth): string => {

    if ('summary' in result) {
        const lines = [`CUIT: ${result.summary.clients}. Trabajos pendientes: ${result.jobs.pending} (${result.jobs.due} vencidos), en curso: ${result.jobs.running}.`];
        for (const entry of result.summary.systems) {
            lines.push(`  ${labelOf(cliLabels.system, entry.system).padEnd(internals.systemWidth)} sincronizados ${entry.synced}, con error ${entry.failing}, más antiguo ${entry.oldestSyncedAtIso ?? '-'}`);
        }

        lines.push(...internals.fleet(result.logins));
        return lines.join('\n');
    }

    const lines: string[] = [];
    for (const client of result.clients) {
        lines.push(`CUIT ${client.cuit} (cuenta ${client.accountId}); trabajos pendientes ${client.jobs.pending}, en curso ${client.jobs.running}`);
        const health = (client as { estado?: CuitHealthView | null }).estado;
        if (health) {
            lines.push(`  estado: ${health.estado}${health.desde ? ` desde ${health.desde}` : ''}. ${visible(health.mensaje)} ${visible(health.accion)}`);
            lines.push(`  clave fiscal${health.clave.cuit ? ` de ${health.clave.cuit}` : ''}: ${health.clave.estado}${health.clave.desde ? ` desde ${health.clave.desde}` : ''}`);
        }

        if (client.logins) {
            lines.push(`  ${describeKeyLogins(client.logins)}`);
        }

        if (client.newKeys) {
            lines.push(`  ${cliMessages.newKeys(client.cuit, client.newKeys)}`);
        }

        const states = new Map(health?.sistemas.map((entry) => [entry.sistema, entry.estado]));
        for (const system of client.systems) {
            const state = states.get(systemNames[system.system]);
            lines.push(`  ${labelOf(cliLabels.system, system.system).padEnd(internals.systemWidth)} ${state ? `${state} · ` : ''}último éxito ${system.syncedAt ?? 'nunca'}${system.lastError ? ` · error (${system.lastAttemptAt}): ${visible(system.lastError)}` : ''}`);
        }
    }

    return lines.join('\n');
};
