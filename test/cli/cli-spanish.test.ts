import { expect } from 'chai';
import type { CliResult } from '../support/cli.js';
import { cliOnServer } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { addClient } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';

// What staff read on the command line is Spanish: states, roles and system names in words,
// counts with the noun in the singular for one; --json keeps the machine values the options
// take and integrations read.

const internals = {
    ok(result: CliResult): string {

        expect(result.code, result.stderr).to.equal(0);
        expect(result.stderr).to.equal('');
        return result.stdout;
    },

    english: /\b(active|paused|ended|inactive|owner|member|registry|issued_invoices|received_invoices)\b/
};

for (const database of testDatabases()) {

    describe(`CLI in Spanish (${database.name})`, function () {

        this.timeout(60_000);
        const suite = cliOnServer(() => startTestServer(database));

        it('accounts and users: subscription states and roles in words, one user and two', async () => {

            const { id } = JSON.parse(internals.ok(await suite.cli('account', 'create', '--name', 'Estudio Singular', '--subscription', 'paused', '--json')));
            internals.ok(await suite.cli('user', 'create', '--account', String(id), '--email', 'titular@singular.com'));

            const shown = internals.ok(await suite.cli('account', 'show', String(id)));
            expect(shown).to.include('Suscripción: pausada (no se pudo cobrar el último pago)');
            expect(shown).to.match(/ {2}\d+ {2}titular@singular\.com {2}titular\n/);
            expect(shown).to.not.match(internals.english);

            const line = () => suite.cli('account', 'list').then((result) => internals.ok(result).split('\n').find((entry) => entry.includes('Estudio Singular'))!);
            expect(await line()).to.match(/ · suscripción pausada \(no se pudo cobrar el último pago\) · escritura deshabilitada · 0 CUIT · 1 usuario$/);

            internals.ok(await suite.cli('user', 'create', '--account', String(id), '--email', 'miembro@singular.com', '--role', 'member'));
            await addClient(suite.server.app.ports, id, { cuit: '20123456786' });
            expect(await line()).to.match(/ · 1 CUIT · 2 usuarios$/);
            expect(internals.ok(await suite.cli('user', 'list', '--account', String(id)))).to.match(/miembro@singular\.com {2}miembro {2}cuenta/);

            for (const [state, words] of [['ended', 'terminada'], ['inactive', 'nunca activada'], ['active', 'activa']]) {
                expect(internals.ok(await suite.cli('account', 'update', String(id), '--subscription', state!))).to.equal(
                    `Cuenta ${id}: escritura deshabilitada, suscripción ${words}\n`
                );
            }

            const json = JSON.parse(internals.ok(await suite.cli('account', 'show', String(id), '--json')));
            expect(json.subscription).to.equal('active');
            expect(json.users.map((user: { role: string }) => user.role)).to.deep.equal(['owner', 'member']);
        });

        it('sync status names the systems in words; --json keeps their keys', async () => {

            const { id } = JSON.parse(internals.ok(await suite.cli('account', 'create', '--name', 'Estudio Sistemas', '--json')));
            await addClient(suite.server.app.ports, id, { cuit: '27234567891' });

            const text = internals.ok(await suite.cli('sync', 'status', '--cuit', '27234567891'));
            for (const label of ['Padrón', 'Comprobantes emitidos', 'Comprobantes recibidos', 'Cuenta tributaria (SCT)', 'Cuenta corriente (CCMA)', 'Domicilio fiscal (DFE)']) {
                expect(text).to.match(new RegExp(`\\n {2}${label.replace(/[()]/g, '\\$&')} +\\S`));
            }

            expect(text).to.not.match(internals.english);

            const json = JSON.parse(internals.ok(await suite.cli('sync', 'status', '--cuit', '27234567891', '--json')));
            expect(json.clients[0].systems.map((system: { system: string }) => system.system)).to.include.members(['registry', 'issued_invoices', 'dfe']);
        });
    });
}
