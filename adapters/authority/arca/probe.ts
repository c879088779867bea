import type { Cuit } from '../../../core/domain/cuit.js';
import type { AuthorityClient, AuthorityKey } from '../../../core/ports/authority-client.js';
import { AuthorityFailure } from '../../../core/ports/authority-client.js';

// `arcasync authority probe`: one key walked through every step against the authority, each
// system read for one CUIT and thrown away (nothing is stored), each step reported with its
// timing and verdict. An operator's first look when the real authority changes.

export interface ProbeStep {
    step: string;
    ms: number;
    ok: boolean;
    verdict: string;                   // "ok (12 comprobantes)" or the failure's kind and message
}

const internals = {
    async step(name: string, now: () => number, work: () => Promise<string>, report: (step: ProbeStep) => void): Promise<boolean> {

        const started = now();
        try {
            const verdict = await work();
            report({ step: name, ms: now() - started, ok: true, verdict: `ok (${verdict})` });
            return true;
        }
        catch (err) {
            const verdict = err instanceof AuthorityFailure ? `${err.kind}: ${err.message}` : `error interno: ${err instanceof Error ? err.name : 'desconocido'}`;
            report({ step: name, ms: now() - started, ok: false, verdict });
            return false;
        }
    }
};

export const probeKey = async (authority: AuthorityClient, input: {
    key: AuthorityKey;
    cuit: Cuit;
    today: string;
    person: boolean;
    now?: () => number;
}, report: (step: ProbeStep) => void): Promise<boolean> => {

    const now = input.now ?? Date.now;
    let session: Awaited<ReturnType<AuthorityClient['login']>> | null = null;
    const loggedIn = await internals.step('login', now, async () => {

        session = await authority.login(input.key);
        return 'sesión del portal abierta';
    }, report);
    if (!loggedIn || !session) {
        return false;
    }

    const opened = session as Awaited<ReturnType<AuthorityClient['login']>>;
    const taxpayer = opened.taxpayer(input.cuit);
    const month = { fromDate: `${input.today.slice(0, 8)}01`, toDate: input.today };
    const steps: [string, () => Promise<string>][] = [
        ...(input.person ? [['registry', async () => JSON.stringify(await taxpayer.registry())] as [string, () => Promise<string>]] : []),
        ['issued_invoices', async () => `${(await taxpayer.invoices('issued', month)).length} comprobantes emitidos este mes`],
        ['received_invoices', async () => `${(await taxpayer.invoices('received', month)).length} comprobantes recibidos este mes`],
        ['sct', async () => {

            const sct = await taxpayer.sct();
            return `${sct.deuda.length} deudas, ${sct.vencimientos.length} vencimientos, ${sct.ddjj.length} DDJJ faltantes`;
        }],
        ['ccma', async () => {

            const { balances, movements } = await taxpayer.ccma();
            if (movements instanceof AuthorityFailure) {
                throw movements;
            }

            return `saldo deudor ${balances.saldoDeudor ?? 'no informado'}, saldo acreedor ${balances.saldoAcreedor ?? 'no informado'}, ${movements.length} movimientos`;
        }],
        ['dfe', async () => `${(await taxpayer.notifications()).length} comunicaciones (ninguna abierta)`]
    ];
    let ok = true;
    for (const [name, work] of steps) {
        ok = await internals.step(name, now, work, report) && ok;
    }

    await opened.close();
    return ok;
};
