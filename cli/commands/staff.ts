import type { Command } from 'commander';
import { assignClientToUser } from '../../core/use-cases/staff/assign-client-to-user.js';
import { assignTag } from '../../core/use-cases/staff/assign-tag.js';
import { createAccount } from '../../core/use-cases/staff/create-account.js';
import { createTag } from '../../core/use-cases/staff/create-tag.js';
import { createToken } from '../../core/use-cases/staff/create-token.js';
import { createUser } from '../../core/use-cases/staff/create-user.js';
import { revokeToken } from '../../core/use-cases/staff/revoke-token.js';
import { showAccount } from '../../core/use-cases/staff/show-account.js';
import { updateAccount } from '../../core/use-cases/staff/update-account.js';
import { outputFor, parseId, withApp } from '../run.js';

// Staff commands of the CLI contract (DESIGN.md): accounts, users, tokens and tags.

export const registerStaffCommands = (program: Command): void => {

    const account = program.command('account').description('cuentas (carteras) de clientes');

    account.command('create')
        .description('crea una cuenta')
        .requiredOption('--name <name>', 'nombre de la cuenta')
        .option('--writing', 'habilita la escritura por API')
        .option('--subscription <state>', 'active | paused | ended | inactive', 'active')
        .action(async (options: { name: string; writing?: boolean; subscription: string }, command: Command) => {

            const result = await withApp((app) => createAccount(app.ports, { name: options.name, writingEnabled: Boolean(options.writing), subscription: options.subscription }));
            outputFor(command).print(`Cuenta creada: ${result.id}`, result);
        });

    account.command('update <id>')
        .description('cambia la escritura por API o el estado de la suscripción')
        .option('--writing', 'habilita la escritura por API')
        .option('--no-writing', 'deshabilita la escritura por API')
        .option('--subscription <state>', 'active | paused | ended | inactive')
        .action(async (id: string, options: { writing?: boolean; subscription?: string }, command: Command) => {

            const result = await withApp((app) => updateAccount(app.ports, { id: parseId(id), writingEnabled: options.writing, subscription: options.subscription }));
            outputFor(command).print(`Cuenta ${result.id}: escritura ${result.writingEnabled ? 'habilitada' : 'deshabilitada'}, suscripción ${result.subscription}`, result);
        });

    account.command('show <id>')
        .description('usuarios, cantidad de CUIT (facturación) y opciones de la cuenta')
        .action(async (id: string, _options: object, command: Command) => {

            const result = await withApp((app) => showAccount(app.ports, { id: parseId(id) }));
            const users = result.users.map((user) => `  ${user.id}  ${user.email}  ${user.role}`).join('\n') || '  (sin usuarios)';
            outputFor(command).print([
                `Cuenta ${result.id}: ${result.name}`,
                `Suscripción: ${result.subscription}`,
                `Escritura por API: ${result.writingEnabled ? 'habilitada' : 'deshabilitada'}`,
                `CUIT gestionados: ${result.cuitCount}`,
                'Usuarios:',
                users
            ].join('\n'), result);
        });

    const user = program.command('user').description('usuarios de una cuenta');

    user.command('create')
        .description('crea un usuario')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--email <email>', 'email')
        .option('--password <password>', 'contraseña para iniciar sesión (MCP con OAuth)')
        .option('--role <role>', 'owner | member', 'owner')
        .action(async (options: { account: string; email: string; password?: string; role: string }, command: Command) => {

            const result = await withApp((app) => createUser(app.ports, { accountId: parseId(options.account), email: options.email, password: options.password, role: options.role }));
            outputFor(command).print(`Usuario creado: ${result.id}`, result);
        });

    user.command('assign')
        .description('asigna un CUIT a un usuario member')
        .requiredOption('--user <id>', 'usuario')
        .requiredOption('--cuit <cuit>', 'CUIT de la cuenta del usuario')
        .action(async (options: { user: string; cuit: string }, command: Command) => {

            const result = await withApp((app) => assignClientToUser(app.ports, { userId: parseId(options.user), cuit: options.cuit }));
            outputFor(command).print(`CUIT ${result.cuit} asignado al usuario ${result.userId}`, result);
        });

    const token = program.command('token').description('tokens de acceso a la API');

    token.command('create')
        .description('crea un token; se muestra una sola vez')
        .requiredOption('--user <id>', 'usuario')
        .option('--name <name>', 'nombre para reconocerlo')
        .action(async (options: { user: string; name?: string }, command: Command) => {

            const result = await withApp((app) => createToken(app.ports, { userId: parseId(options.user), name: options.name }));
            outputFor(command).print(`Token ${result.id} (se muestra una sola vez):\n${result.token}`, result);
        });

    token.command('revoke <id>')
        .description('revoca un token')
        .action(async (id: string, _options: object, command: Command) => {

            const result = await withApp((app) => revokeToken(app.ports, { id: parseId(id) }));
            outputFor(command).print(`Token ${result.id} revocado`, result);
        });

    const tag = program.command('tag').description('etiquetas de una cuenta');

    tag.command('create')
        .description('crea una etiqueta')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--name <name>', 'nombre')
        .requiredOption('--color <color>', 'color #RRGGBB')
        .action(async (options: { account: string; name: string; color: string }, command: Command) => {

            const result = await withApp((app) => createTag(app.ports, { accountId: parseId(options.account), name: options.name, color: options.color }));
            outputFor(command).print(`Etiqueta creada: ${result.nombre}`, result);
        });

    tag.command('assign')
        .description('etiqueta un CUIT de la cuenta')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--cuit <cuit>', 'CUIT')
        .requiredOption('--name <name>', 'nombre de la etiqueta')
        .action(async (options: { account: string; cuit: string; name: string }, command: Command) => {

            const result = await withApp((app) => assignTag(app.ports, { accountId: parseId(options.account), cuit: options.cuit, name: options.name }));
            outputFor(command).print(`Etiqueta '${result.etiqueta}' asignada a ${result.cuit}`, result);
        });
};
