import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { assertDatabaseExists, configOf, failure, outputFor, withApp } from '../run.js';
import { cliMessages, counted } from '../messages.js';

// The key of the stored credentials (clave_arca), of the webhooks' signing secrets and of the
// OAuth server's own keys (cookies, token signing, CSRF): rotate it without stopping the
// service, and see which keys still seal something. Only key ids (8 hex digits of sha256) are
// ever printed, never a key nor a credential.
//
// Rotation without downtime, with ARCASYNC_SECRET_KEY:
//   1. Deploy every process with ARCASYNC_SECRET_KEY=<new> and ARCASYNC_SECRET_KEYS=<old>
//      (if processes of both configurations will overlap during the rollout, first add
//      <new> to ARCASYNC_SECRET_KEYS everywhere, so old processes open what new ones seal).
//   2. Run `arcasync secret rotate` with that same configuration: every value still under
//      <old> (credentials, signing secrets, OAuth server keys) is sealed again under <new>;
//      API, sync, edits, deliveries and OAuth sessions keep working meanwhile.
//   3. `arcasync secret status` shows nothing left under <old>: drop it from ARCASYNC_SECRET_KEYS.
// Alternatively ARCASYNC_NEW_SECRET_KEY=<new> re-seals under <new> before the deploy (every
// running process must already hold <new> in ARCASYNC_SECRET_KEYS).
// On the embedded default (./data/secret.key) `secret rotate` generates the new key itself,
// writes it first in the file with the old keys after it, then re-seals; running processes
// notice the file changed and seal with the new key from their next seal on, and reread it
// when they meet a value under a key they do not know. With ARCASYNC_SECRET_KEY, processes
// read the environment at start: the command says what to change and restart.

const internals = {
    already: (count: number): string => `${count} ya ${count === 1 ? 'lo estaba' : 'lo estaban'}`
};

export const registerSecretCommands = (program: Command, io: CliIo): void => {

    const secret = program.command('secret').description('clave de cifrado de las credenciales guardadas (clave_arca), de los secretos de firma de webhooks y de las claves del servidor OAuth');

    secret.command('rotate')
        .description(
            're-cifra todas las credenciales guardadas, los secretos de firma de webhooks y las claves del servidor OAuth con la clave nueva (ARCASYNC_NEW_SECRET_KEY, una generada en ./data/secret.key, o la actual ARCASYNC_SECRET_KEY)'
        )
        .action(async (_options: object, command: Command) => {

            const [{ planRotation, secretBoxFor, writeKeyFile }, { resealStoredKeys }] = await Promise.all([
                import('../../app/secret-keys.js'),
                import('../../core/use-cases/reseal-stored-keys.js')
            ]);
            const output = outputFor(command, io);
            const config = await configOf(io);
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

    secret.command('status')
        .description('cuántas credenciales, secretos de firma de webhooks y claves del servidor OAuth cifró cada clave; una clave anterior sin ninguno se puede quitar de ARCASYNC_SECRET_KEYS')
        .action(async (_options: object, command: Command) => {

            const { countSealedKeys } = await import('../../core/use-cases/count-sealed-keys.js');
            const result = await withApp(io, (app) => countSealedKeys(app.ports));
            const lines = [
                `Clave actual: ${result.keyId}`,
                ...result.keys.map((key) => `  ${key.keyId ?? '(sin formato)'}: ${counted(key.count, 'credencial', 'credenciales')}${key.current ? ' (actual)' : ''}`),
                ...result.webhookSecrets.map((key) => `  ${key.keyId ?? '(sin formato)'}: ${counted(key.count, 'secreto', 'secretos')} de firma de webhooks${key.current ? ' (actual)' : ''}`),
                ...result.oauthSecrets.map((key) => `  ${key.keyId ?? '(sin formato)'}: ${counted(key.count, 'clave', 'claves')} del servidor OAuth${key.current ? ' (actual)' : ''}`)
            ];
            outputFor(command, io).print(lines.join('\n'), result);
        });
};
