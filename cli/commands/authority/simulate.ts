import type { Command } from 'commander';
import type { SimulatedFailures } from '../../../app/authority.js';
import { defaultFesMinGapMs } from '../../../app/simulated-defaults.js';
import type { CliIo } from '../../io.js';
import { stopRequested } from '../../io.js';
import { lazy } from '../../lazy.js';
import { failure, outputFor } from '../../run.js';

// `arcasync authority simulate`: the simulated authority alone, for AUTHORITY_URL of servers
// and workers run apart (README.md, The command line). Runs until interrupted.

const internals = {
    share(name: string, value: string | undefined): number | undefined {

        if (value === undefined) {
            return undefined;
        }

        const share = Number(value);
        if (!Number.isFinite(share) || share < 0 || share > 1) {
            throw failure(`${name} debe ser una proporción entre 0 y 1`);
        }

        return share;
    },

    integer(name: string, value: string | undefined, min: number): number | undefined {

        if (value === undefined) {
            return undefined;
        }

        const number = Number(value);
        if (!Number.isInteger(number) || number < min || number > 65_535) {
            throw failure(`${name} debe ser un entero entre ${min} y 65535`);
        }

        return number;
    }
};

interface SimulateOptions {
    port?: string;
    latency?: string;
    fail5xx?: string;
    failTimeout?: string;
    failMalformed?: string;
    csvGeneration?: string;
    fesGapMs?: string;
    captchaAfter?: string;
    jwtTtlMs?: string;
}

export const addAuthoritySimulate = (authority: Command, io: CliIo): void => {

    authority.command('simulate')
        .description('sirve la autoridad simulada en 127.0.0.1 (apuntá AUTHORITY_URL a la dirección que imprime)')
        .option('--port <port>', 'puerto (0: uno libre)', '0')
        .option('--latency <ms>', 'demora agregada a cada respuesta, en milisegundos')
        .option('--fail-5xx <share>', 'proporción de respuestas 500/503')
        .option('--fail-timeout <share>', 'proporción de pedidos que no se responden')
        .option('--fail-malformed <share>', 'proporción de datos ilegibles')
        .option('--csv-generation <n>', 'generación del CSV de Mis Comprobantes (1, 2 o 3; por omisión, la de la fecha)')
        .option('--fes-gap-ms <ms>', `Mis Comprobantes responde "BL…" a pedidos más seguidos que esto (por omisión ${defaultFesMinGapMs}; el real, unos 1200)`)
        .option('--captcha-after <n>', 'pide CAPTCHA tras n ingresos de una CUIT en 10 minutos')
        .option('--jwt-ttl-ms <ms>', 'vida del jwt del ingreso (por omisión 10000)')
        .action(async (options: SimulateOptions, command: Command) => {

            const output = outputFor(command, io);
            const failures: SimulatedFailures = {};
            const serverError = internals.share('--fail-5xx', options.fail5xx);
            const timeout = internals.share('--fail-timeout', options.failTimeout);
            const malformed = internals.share('--fail-malformed', options.failMalformed);
            if (serverError !== undefined) {
                failures.serverError = serverError;
            }

            if (timeout !== undefined) {
                failures.timeout = timeout;
            }

            if (malformed !== undefined) {
                failures.malformed = malformed;
            }

            const generation = options.csvGeneration === undefined ? undefined : Number(options.csvGeneration);
            if (generation !== undefined && generation !== 1 && generation !== 2 && generation !== 3) {
                throw failure('--csv-generation debe ser 1, 2 o 3');
            }

            const fesMinGapMs = internals.integer('--fes-gap-ms', options.fesGapMs, 0);
            const captchaAfter = internals.integer('--captcha-after', options.captchaAfter, 1);
            const jwtTtlMs = internals.integer('--jwt-ttl-ms', options.jwtTtlMs, 1);

            const { startSimulatedAuthority } = await lazy.authority();
            const stopping = stopRequested(io);
            const simulated = await startSimulatedAuthority({
                port: internals.integer('--port', options.port, 0) ?? 0,
                latencyMs: internals.integer('--latency', options.latency, 0) ?? 0,
                failures,
                ...(generation === undefined ? {} : { csvGeneration: generation }),
                ...(fesMinGapMs === undefined ? {} : { fesMinGapMs }),
                ...(captchaAfter === undefined ? {} : { captchaAfter: { logins: captchaAfter, windowMs: 10 * 60_000 } }),
                ...(jwtTtlMs === undefined ? {} : { jwtTtlMs })
            });
            output.print(`Autoridad simulada en ${simulated.url}\nUsala con AUTHORITY=simulated AUTHORITY_URL=${simulated.url}`, { url: simulated.url, port: simulated.port });
            await stopping;
            await simulated.stop();
        });
};
