import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { outputFor, parseId, withApp } from '../run.js';
import { cliLabels, counted, labelOf } from '../messages.js';
import { visible } from '../terminal-text.js';

// Staff commands of the command line (README.md): accounts, users, tokens and tags. Each use
// case is loaded when its command runs.

const staff = {
    assignClientToUser: () => import('../../core/use-cases/staff/assign-client-to-user.js'),
    assignTag: () => import('../../core/use-cases/staff/assign-tag.js'),
    createAccount: () => import('../../core/use-cases/staff/create-account.js'),
    createTag: () => import('../../core/use-cases/staff/create-tag.js'),
    createToken: () => import('../../core/use-cases/staff/create-token.js'),
    createUser: () => import('../../core/use-cases/staff/create-user.js'),
    listAccounts: () => import('../../core/use-cases/staff/list-accounts.js'),
    listTokens: () => import('../../core/use-cases/staff/list-tokens.js'),
    listUsers: () => import('../../core/use-cases/staff/list-users.js'),
    revokeToken: () => import('../../core/use-cases/staff/revoke-token.js'),
    showAccount: () => import('../../core/use-cases/staff/show-account.js'),
    updateAccount: () => import('../../core/use-cases/staff/update-account.js')
};

export const registerStaffCommands = (program: Command, io: CliIo): void => {

    const account = program.command('account').description('cuentas (carteras) de clientes');

    account.command('create')
        .description('crea una cuenta')
        .requiredOption('--name <name>', 'nombre de la cuenta')
        .option('--writing', 'habilita la escritura por API')
        .option('--subscription <state>', 'active | paused | ended | inactive', 'active')
        .action(async (options: { name: string; writing?: boolean; subscription: string }, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.createAccount()).createAccount(app.ports, {
                name: options.name,
                writingEnabled: Boolean(options.writing),
                subscription: options.subscription
            }));
            outputFor(command, io).print(`Cuenta creada: ${result.id}`, result);
        });

    account.command('update <id>')
        .description('cambia la escritura por API o el estado de la suscripción')
        .option('--writing', 'habilita la escritura por API')
        .option('--no-writing', 'deshabilita la escritura por API')
        .option('--subscription <state>', 'active | paused | ended | inactive')
        .action(async (id: string, options: { writing?: boolean; subscription?: string }, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.updateAccount()).updateAccount(app.ports, {
                id: parseId(id),
                writingEnabled: options.writing,
                subscription: options.subscription
            }));
            outputFor(command, io).print(`Cuenta ${result.id}: escritura ${result.writingEnabled ? 'habilitada' : 'deshabilitada'}, suscripción ${labelOf(cliLabels.subscription, result.subscription)}`, result);
        });

    account.command('show <id>')
        .description('usuarios, cantidad de CUIT (facturación) y opciones de la cuenta')
        .action(async (id: string, _options: object, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.showAccount()).showAccount(app.ports, { id: parseId(id) }));
            const users = result.users.map((user) => `  ${user.id}  ${visible(user.email)}  ${labelOf(cliLabels.role, user.role)}`).join('\n') || '  (sin usuarios)';
            outputFor(command, io).print([
                `Cuenta ${result.id}: ${visible(result.name)}`,
                `Suscripción: ${labelOf(cliLabels.subscription, result.subscription)}`,
                `Escritura por API: ${result.writingEnabled ? 'habilitada' : 'deshabilitada'}`,
                `CUIT gestionados: ${result.cuitCount}`,
                'Usuarios:',
                users
            ].join('\n'), result);
        });

    account.command('list')
        .description('todas las cuentas: id, nombre, suscripción, escritura, CUIT y usuarios')
        .action(async (_options: object, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.listAccounts()).listAccounts(app.ports));
            const lines = result.accounts.map((item) => `  ${item.id}  ${visible(item.name)} · suscripción ${labelOf(cliLabels.subscription, item.subscription)} · escritura ${item.writingEnabled ? 'habilitada' : 'deshabilitada'} · ${item.cuitCount} CUIT · ${counted(item.userCount, 'usuario', 'usuarios')}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin cuentas)', result);
        });

    const user = program.command('user').description('usuarios de una cuenta');

    user.command('list')
        .description('los usuarios de una cuenta (de todas si no se indica): id, email, rol')
        .option('--account <id>', 'cuenta')
        .action(async (options: { account?: string }, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.listUsers()).listUsers(app.ports, {
                accountId: options.account === undefined ? undefined : parseId(options.account)
            }));
            const lines = result.users.map((item) => `  ${item.id}  ${visible(item.email)}  ${labelOf(cliLabels.role, item.role)}  cuenta ${item.accountId}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin usuarios)', result);
        });

    user.command('create')
        .description('crea un usuario')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--email <email>', 'email')
        .option('--password <password>', 'contraseña para iniciar sesión (MCP con OAuth)')
        .option('--role <role>', 'owner | member', 'owner')
        .action(async (options: { account: string; email: string; password?: string; role: string }, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.createUser()).createUser(app.ports, {
                accountId: parseId(options.account),
                email: options.email,
                password: options.password,
                role: options.role
            }));
            outputFor(command, io).print(`Usuario creado: ${result.id}`, result);
        });

    user.command('assign')
        .description('asigna un CUIT a un usuario member')
        .requiredOption('--user <id>', 'usuario')
        .requiredOption('--cuit <cuit>', 'CUIT de la cuenta del usuario')
        .action(async (options: { user: string; cuit: string }, command: Command) => {

            const result = await withApp(
                io,
                async (app) => (await staff.assignClientToUser()).assignClientToUser(app.ports, { userId: parseId(options.user), cuit: options.cuit })
            );
            outputFor(command, io).print(`CUIT ${result.cuit} asignado al usuario ${result.userId}`, result);
        });

    const token = program.command('token').description('tokens de acceso a la API');

    token.command('create')
        .description('crea un token; se muestra una sola vez')
        .requiredOption('--user <id>', 'usuario')
        .option('--name <name>', 'nombre para reconocerlo')
        .action(async (options: { user: string; name?: string }, command: Command) => {

            const result = await withApp(
                io,
                async (app) => (await staff.createToken()).createToken(app.ports, { userId: parseId(options.user), name: options.name })
            );
            outputFor(command, io).print(`Token ${result.id} (se muestra una sola vez):\n${result.token}`, result);
        });

    token.command('list')
        .description('los tokens de un usuario o de una cuenta (todos si no se indica): id, nombre, prefijo y fechas; nunca el token')
        .option('--user <id>', 'usuario')
        .option('--account <id>', 'cuenta')
        .action(async (options: { user?: string; account?: string }, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.listTokens()).listTokens(app.ports, {
                userId: options.user === undefined ? undefined : parseId(options.user),
                accountId: options.account === undefined ? undefined : parseId(options.account)
            }));
            const lines = result.tokens.map((item) => `  ${item.id}  ${visible(item.prefix)}…  ${item.name === null ? '(sin nombre)' : visible(item.name)}  usuario ${item.userId}  creado ${item.createdAt}${item.revokedAt ? ` · revocado ${item.revokedAt}` : ''}`);
            outputFor(command, io).print(lines.join('\n') || '  (sin tokens)', result);
        });

    token.command('revoke <id>')
        .description('revoca un token')
        .action(async (id: string, _options: object, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.revokeToken()).revokeToken(app.ports, { id: parseId(id) }));
            outputFor(command, io).print(`Token ${result.id} revocado`, result);
        });

    const tag = program.command('tag').description('etiquetas de una cuenta');

    tag.command('create')
        .description('crea una etiqueta')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--name <name>', 'nombre')
        .requiredOption('--color <color>', 'color #RRGGBB')
        .action(async (options: { account: string; name: string; color: string }, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.createTag()).createTag(app.ports, {
                accountId: parseId(options.account),
                name: options.name,
                color: options.color
            }));
            outputFor(command, io).print(`Etiqueta creada: ${visible(result.nombre)}`, result);
        });

    tag.command('assign')
        .description('etiqueta un CUIT de la cuenta')
        .requiredOption('--account <id>', 'cuenta')
        .requiredOption('--cuit <cuit>', 'CUIT')
        .requiredOption('--name <name>', 'nombre de la etiqueta')
        .action(async (options: { account: string; cuit: string; name: string }, command: Command) => {

            const result = await withApp(io, async (app) => (await staff.assignTag()).assignTag(app.ports, {
                accountId: parseId(options.account),
                cuit: options.cuit,
                name: options.name
            }));
            outputFor(command, io).print(`Etiqueta '${visible(result.etiqueta)}' asignada a ${result.cuit}`, result);
        });
};
