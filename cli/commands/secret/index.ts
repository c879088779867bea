import type { Command } from 'commander';
import type { CliIo } from '../../io.js';
import { addSecretRotate } from './rotate.js';
import { addSecretStatus } from './status.js';

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
export const registerSecretCommands = (program: Command, io: CliIo): void => {

    const secret = program.command('secret').description('clave de cifrado de las credenciales guardadas (clave_arca), de los secretos de firma de webhooks y de las claves del servidor OAuth');
    for (const add of [addSecretRotate, addSecretStatus]) {
        add(secret, io);
    }
};
