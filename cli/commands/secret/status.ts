import type { Command } from 'commander';
import { countSealedKeys } from '../../../core/use-cases/count-sealed-keys.js';
import type { CliIo } from '../../io.js';
import { counted } from '../../messages.js';
import { outputFor, withApp } from '../../run.js';

export const addSecretStatus = (secret: Command, io: CliIo): void => {

    secret.command('status')
        .description('cuántas credenciales, secretos de firma de webhooks y claves del servidor OAuth cifró cada clave; una clave anterior sin ninguno se puede quitar de ARCASYNC_SECRET_KEYS')
        .action(async (_options: object, command: Command) => {

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
