import type { Command } from 'commander';
import { planRotation, secretBoxFor, writeKeyFile } from '../../../app/secret-keys.js';
import { resealStoredKeys } from '../../../core/use-cases/reseal-stored-keys.js';
import type { CliIo } from '../../io.js';
import { cliMessages, counted } from '../../messages.js';
import { assertDatabaseExists, configOf, failure, outputFor, withApp } from '../../run.js';

// `arcasync secret rotate`: everything sealed re-sealed under the new key (the steps in
// ./index.ts).

const internals = {
    already: (count: number): string => `${count} ya ${count === 1 ? 'lo estaba' : 'lo estaban'}`
};

export const addSecretRotate = (secret: Command, io: CliIo): void => {

    secret.command('rotate')
        .description(
            're-cifra todas las credenciales guardadas, los secretos de firma de webhooks y las claves del servidor OAuth con la clave nueva (ARCASYNC_NEW_SECRET_KEY, una generada en ./data/secret.key, o la actual ARCASYNC_SECRET_KEY)'
        )
        .action(async (_options: object, command: Command) => {

            const output = outputFor(command, io);
            const config = configOf(io);
            await assertDatabaseExists(config);
            const plan = planRotation(config, io.env.ARCASYNC_NEW_SECRET_KEY);
            if (plan.path) {
                writeKeyFile(plan.path, plan.keyring);
            }

            const report = await withApp(io, (app) => resealStoredKeys({
                clients: app.ports.clients,
                webhooks: app.ports.webhooks,
                oauthStore: app.ports.oauthStore,
                secretBox: secretBoxFor({ kind: 'env', keyring: plan.keyring })
            }));
            const secrets = report.webhookSecrets;
            const oauth = report.oauthSecrets;
            const data = { ...report, previousKeyIds: plan.previousKeyIds, generated: plan.generated, keyFile: plan.path };
            const lines = [
                `Credenciales cifradas con la clave ${report.keyId}: ${counted(report.resealed, 're-cifrada', 're-cifradas')}, ${internals.already(report.alreadyCurrent)} (de ${counted(report.total, 'guardada', 'guardadas')}).`,
                `Secretos de firma de webhooks: ${counted(secrets.resealed, 're-cifrado', 're-cifrados')}, ${internals.already(secrets.alreadyCurrent)} (de ${secrets.total}).`,
                `Claves del servidor OAuth (cookies, firma de tokens, CSRF): ${counted(oauth.resealed, 're-cifrada', 're-cifradas')}, ${internals.already(oauth.alreadyCurrent)} (de ${oauth.total}).`
            ];
            if (plan.generated) {
                lines.push(`Se generó la clave ${report.keyId} en ${plan.path}; las anteriores (${plan.previousKeyIds.join(', ') || 'ninguna'}) quedan en el archivo para abrir lo que se cifró con ellas.`);
            }
            else if (plan.source === 'env' && io.env.ARCASYNC_NEW_SECRET_KEY) {
                lines.push(`Configurá ARCASYNC_SECRET_KEY con la clave nueva (${report.keyId}) y pasá la anterior a ARCASYNC_SECRET_KEYS en todos los procesos.`);
            }

            output.print(lines.join('\n'), data);
            if (report.unreadable) {
                throw failure(cliMessages.secretUnreadable(report.unreadable, report.unreadableClientIds.slice(0, 20).join(', ')));
            }

            if (secrets.unreadable) {
                throw failure(cliMessages.webhookSecretUnreadable(secrets.unreadable, secrets.unreadableEndpointIds.slice(0, 20).join(', ')));
            }

            if (oauth.unreadable) {
                throw failure(cliMessages.oauthSecretUnreadable(oauth.unreadable, oauth.unreadableIds.join(', ')));
            }
        });
};
