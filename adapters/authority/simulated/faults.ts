import type { ServerResponse } from 'node:http';
import { messagePage } from './pages.js';
import { seededRandom } from './random.js';
import { html, json, send } from './reply.js';
import type { ScriptedAnswer, ScriptedFailure, SimulatedFailures, SimulatedState } from './state.js';

// The simulated authority's faults: scripted ones (`script({ host, path, answer, times })`,
// answered in order before anything else) and random ones (`failures` shares, drawn from a
// seeded source so a run can be replayed). A firewall block is "BL<digits> <timestamp>" with
// HTTP 200, as the real fes answers a burst.

export interface Faults {
    // A share's draw: true in about `share` of the calls.
    chance(share: number | undefined): boolean;
    readonly failures: SimulatedFailures;
    setFailures(failures: SimulatedFailures): void;
    script(failure: ScriptedFailure): void;
    // The answer a request gets instead of its own, if any.
    answerFor(host: string, path: string): ScriptedAnswer | null;
    // Writes that answer (a timeout holds the request unanswered).
    answer(res: ServerResponse, answer: ScriptedAnswer, path: string): void;
    block(res: ServerResponse): void;
    release(): void;
}

export const createFaults = (state: SimulatedState): Faults => {

    const random = seededRandom(state.options.failureSeed ?? 1);
    const scripted: (ScriptedFailure & { left: number })[] = [];
    const held = new Set<ServerResponse>();
    let failures: SimulatedFailures = { ...state.options.failures };

    const faults: Faults = {
        chance: (share) => Boolean(share) && random.chance(share!),
        get failures() {

            return failures;
        },

        setFailures(next) {

            failures = { ...next };
        },

        script(failure) {

            scripted.push({ ...failure, left: failure.times ?? 1 });
        },

        answerFor(host, path) {

            const rule = scripted.find((candidate) => candidate.left > 0 && candidate.host === host && (!candidate.path || candidate.path.test(path)));
            if (rule) {
                rule.left--;
                return rule.answer;
            }

            return faults.chance(failures.timeout) ? 'timeout' : faults.chance(failures.serverError) ? 'serverError' : null;
        },

        block(res) {

            state.stats.blocks++;
            send(res, 200, `BL${String(Date.now()).slice(-9)} ${new Date().toISOString()}`, 'text/plain');
        },

        answer(res, answer, path) {

            switch (answer) {
                case 'timeout':
                    held.add(res);
                    setTimeout(() => {

                        held.delete(res);
                        res.destroy();
                    }, state.options.timeoutHoldMs ?? 60_000).unref();
                    return;
                case 'serverError':
                    return html(res, messagePage('Servicio no disponible', 'El sistema se encuentra en mantenimiento. Intente más tarde.'), 503);
                case 'block':
                    return faults.block(res);
                case 'empty503':
                    state.stats.blocks++;
                    return send(res, 503, '', 'text/html');
                case 'sessionExpired':
                    return path.endsWith('ajax.do') ? json(res, {
                        estado: 'error',
                        mensajeError: 'Su sesión ha expirado'
                    }) : html(res, messagePage('Sesión expirada', 'Su sesión ha expirado'), 403);
                case 'unknownPage':
                    return html(res, messagePage('Aviso importante', 'Estamos realizando cambios en el sistema. Volvé a intentar en unos minutos.'));
            }
        },

        release() {

            for (const res of held) {
                res.destroy();
            }

            held.clear();
        }
    };

    return faults;
};
