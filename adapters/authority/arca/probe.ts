import type { Cuit } from '../../../core/domain/cuit.js';
import type { AuthorityClient } from '../../../core/ports/authority-client.js';
import { AuthorityFailure } from '../../../core/ports/authority-client.js';

// `arcasync authority probe`: one key walked through every step against the authority, each
// system read for one CUIT and thrown away (nothing is stored), each step reported with its
// timing and verdict. An operator's first look when the real authority changes. The login is
// the caller's (core/use-cases/sync/log-in.ts, logInForProbe: the fleet's ledger gate), and so
// is closing its session.

export interface ProbeStep {
    step: string;
    ms: number;
    ok: boolean;
    verdict: string;                   // "ok (12 comprobantes)" or the failure's kind and message
}

type Session = Awaited<ReturnType<AuthorityClient['login']>>;

const internals = {
    verdict: (err: unknown): string => (err instanceof AuthorityFailure ? `${err.kind}: ${err.message}` : `error interno: ${err instanceof Error ? err.name : 'desconocido'}`),

    async step(name: string, now: () => number, work: () => Promise<string>, report: (step: ProbeStep) => void): Promise<boolean> {

        const started = now();
        try {
            const verdict = await work();
            report({ step: name, ms: now() - started, ok: true, verdict: `ok (${verdict})` });
            return true;
        }
        catch (err) {
            report({ step: name, ms: now() - started, ok: false, verdict: internals.verdict(err) });
            return false;
        }
    }
};

// logIn: the session, the failed login's verdict, or null when no login was tried (then
// nothing is reported and the probe answers null).
export const probeKey = async (input: {
    logIn: () => Promise<{ session: Session } | { failed: string } | null>;
    cuit: Cuit;
    today: string;
    person: boolean;
    now?: () => number;
}, report: (step: ProbeStep) => void): Promise<boolean | null> => {

    const now = input.now ?? Date.now;
    const started = now();
    const login = await input.logIn().catch((err: unknown) => ({ failed: internals.verdict(err) }));
    if (!login) {
        return null;
    }

    if ('failed' in login) {
        report({ step: 'login', ms: now() - started, ok: false, verdict: login.failed });
        return false;
    }

    report({ step: 'login', ms: now() - started, ok: true, verdict: 'ok (sesión del portal abierta)' });
    const taxpayer = login.session.taxpayer(input.cuit);
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

    return ok;
};
