import { expect } from 'chai';
import { messages } from '../../core/domain/messages.js';
import { cliJson, cliOnServer, cliRefusal } from '../support/cli.js';
import { testDatabases } from '../support/databases.js';
import { addClient, seedAccount } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';

// `arcasync tag …` (cli/commands/tag/) as staff meet it: create, assign, unassign, update and
// delete an account's tags, each answer as text and as JSON, every refusal one Spanish line, and
// what the REST API shows afterwards (`GET /v1/tags`, the `etiquetas` of `GET /v1/cuits`). A
// tag or CUIT of another account is never reached: not found, and the other account's stays.

for (const database of testDatabases()) {

    describe(`CLI: an account's tags (${database.name})`, function () {

        this.timeout(120_000);

        const suite = cliOnServer(() => startTestServer(database));
        const cli = (...args: string[]) => suite.cli(...args);

        // A new account with two CUITs, and what its owner's token reads of its tags.
        const estudio = async () => {

            const owner = await seedAccount(suite.server.app.ports);
            await addClient(suite.server.app.ports, owner.accountId, { cuit: '20123456786', apellido: 'Alfaro' });
            await addClient(suite.server.app.ports, owner.accountId, { cuit: '27000000408', apellido: 'Zapata' });
            const account = String(owner.accountId);
            const tags = async () => (await suite.server.request('/v1/tags', { token: owner.token })).body.data;
            const etiquetas = async () => Object.fromEntries((await suite.server.request('/v1/cuits', { token: owner.token })).body.data
                .map((client: { cuit: string; etiquetas: string[] }) => [client.cuit, client.etiquetas]));
            return { owner, account, tags, etiquetas };
        };

        it('creates a tag (colour stored in lower case), assigns and unassigns it, and the API shows each change at once', async () => {

            const { owner, account, tags, etiquetas } = await estudio();
            // Read before: a cached answer would show if a change did not reach the API.
            expect(await tags()).to.deep.equal([]);
            expect(await etiquetas()).to.deep.equal({ '20123456786': [], '27000000408': [] });

            const created = await cli('tag', 'create', '--account', account, '--name', '  Sueldos ', '--color', '#AA00FF');
            expect(created.code, created.stderr).to.equal(0);
            expect(created.stdout).to.equal('Etiqueta creada: Sueldos\n');
            expect(cliJson(await cli('tag', 'create', '--account', account, '--name', 'IVA', '--color', '#123456', '--json'))).to.deep.include({ nombre: 'IVA', color: '#123456' });
            expect(await tags()).to.deep.equal([{ nombre: 'IVA', color: '#123456' }, { nombre: 'Sueldos', color: '#aa00ff' }]);

            // The CUIT with or without dashes; the tag's name in any case.
            const assigned = await cli('tag', 'assign', '--account', account, '--cuit', '20-12345678-6', '--name', 'Sueldos');
            expect(assigned.stdout).to.equal("Etiqueta 'Sueldos' asignada a 20123456786\n");
            expect(cliJson(await cli('tag', 'assign', '--account', account, '--cuit', '27000000408', '--name', 'sueldos', '--json')))
                .to.deep.equal({ cuit: '27000000408', etiqueta: 'sueldos' });
            expect(await etiquetas()).to.deep.equal({ '20123456786': ['Sueldos'], '27000000408': ['Sueldos'] });
            const filtered = await suite.server.request('/v1/cuits?etiquetas=Sueldos', { token: owner.token });
            expect(filtered.body.data).to.have.length(2);

            // Twice is harmless, as is taking off a tag the CUIT does not have.
            expect((await cli('tag', 'assign', '--account', account, '--cuit', '20123456786', '--name', 'Sueldos')).code).to.equal(0);
            expect((await cli('tag', 'unassign', '--account', account, '--cuit', '20123456786', '--name', 'IVA')).code).to.equal(0);

            const unassigned = await cli('tag', 'unassign', '--account', account, '--cuit', '27-00000040-8', '--name', 'Sueldos');
            expect(unassigned.stdout).to.equal("Etiqueta 'Sueldos' quitada de 27000000408\n");
            expect(await etiquetas()).to.deep.equal({ '20123456786': ['Sueldos'], '27000000408': [] });
        });

        it('renames and recolours a tag where it is assigned, and deleting it takes it off every CUIT', async () => {

            const { account, tags, etiquetas } = await estudio();
            await cli('tag', 'create', '--account', account, '--name', 'Mensual', '--color', '#aa0000');
            await cli('tag', 'assign', '--account', account, '--cuit', '20123456786', '--name', 'Mensual');
            await cli('tag', 'assign', '--account', account, '--cuit', '27000000408', '--name', 'Mensual');
            expect(await etiquetas()).to.deep.equal({ '20123456786': ['Mensual'], '27000000408': ['Mensual'] });

            const renamed = await cli('tag', 'update', '--account', account, '--name', 'mensual', '--new-name', 'Trimestral', '--color', '#00AA00');
            expect(renamed.stdout).to.equal('Etiqueta actualizada: Trimestral (#00aa00)\n');
            expect(await tags()).to.deep.equal([{ nombre: 'Trimestral', color: '#00aa00' }]);
            expect(await etiquetas()).to.deep.equal({ '20123456786': ['Trimestral'], '27000000408': ['Trimestral'] });

            // The same name to change the colour only.
            expect(cliJson(await cli('tag', 'update', '--account', account, '--name', 'Trimestral', '--new-name', 'Trimestral', '--color', '#0000ff', '--json')))
                .to.deep.equal({ nombre: 'Trimestral', color: '#0000ff' });
            expect(await tags()).to.deep.equal([{ nombre: 'Trimestral', color: '#0000ff' }]);

            const deleted = await cli('tag', 'delete', '--account', account, '--name', 'Trimestral');
            expect(deleted.stdout).to.equal('Etiqueta borrada: Trimestral\n');
            expect(await tags()).to.deep.equal([]);
            expect(await etiquetas()).to.deep.equal({ '20123456786': [], '27000000408': [] });
            cliRefusal(await cli('tag', 'delete', '--account', account, '--name', 'Trimestral'), messages.admin.tagNotFound('Trimestral'));
        });

        it('refuses bad input in Spanish, one line, and changes nothing', async () => {

            const { account, tags, etiquetas } = await estudio();
            await cli('tag', 'create', '--account', account, '--name', 'Sueldos', '--color', '#aa00ff');
            await cli('tag', 'create', '--account', account, '--name', 'IVA', '--color', '#123456');

            // Both failures of one input at once.
            cliRefusal(await cli('tag', 'create', '--account', account, '--name', '   ', '--color', 'rojo'), `${messages.admin.invalidName} ${messages.admin.invalidColor}`);
            cliRefusal(await cli('tag', 'create', '--account', account, '--name', 'SUELDOS', '--color', '#000000'), messages.admin.tagTaken('SUELDOS'));
            cliRefusal(await cli('tag', 'create', '--account', '999999', '--name', 'Otra', '--color', '#000000'), messages.admin.accountNotFound(999999));
            const json = await cli('tag', 'create', '--account', account, '--name', 'Nueva', '--color', '#12345', '--json');
            expect(json.code).to.equal(1);
            expect(JSON.parse(json.stderr)).to.deep.equal({ error: messages.admin.invalidColor });

            cliRefusal(await cli('tag', 'update', '--account', account, '--name', 'Sueldos', '--new-name', 'iva', '--color', '#000000'), messages.admin.tagTaken('iva'));
            cliRefusal(await cli('tag', 'update', '--account', account, '--name', 'Ninguna', '--new-name', 'Otra', '--color', '#000000'), messages.admin.tagNotFound('Ninguna'));
            cliRefusal(await cli('tag', 'update', '--account', account, '--name', 'Sueldos', '--new-name', 'Sueldos', '--color', '#GGGGGG'), messages.admin.invalidColor);

            cliRefusal(await cli('tag', 'assign', '--account', account, '--cuit', '20123456786', '--name', 'Ninguna'), messages.admin.tagNotFound('Ninguna'));
            cliRefusal(await cli('tag', 'assign', '--account', account, '--cuit', '2012345678', '--name', 'Sueldos'), messages.admin.invalidCuit);
            // A valid CUIT that is not one of the account's.
            cliRefusal(await cli('tag', 'assign', '--account', account, '--cuit', '20000000028', '--name', 'Sueldos'), messages.admin.clientNotInAccount('20000000028'));
            cliRefusal(await cli('tag', 'unassign', '--account', account, '--cuit', '20000000028', '--name', 'Sueldos'), messages.admin.clientNotInAccount('20000000028'));
            cliRefusal(await cli('tag', 'assign', '--account', 'uno', '--cuit', '20123456786', '--name', 'Sueldos'), 'Identificador inválido: se espera el número que muestran los listados (no un token ni un email).');

            expect(await tags()).to.deep.equal([{ nombre: 'IVA', color: '#123456' }, { nombre: 'Sueldos', color: '#aa00ff' }]);
            expect(await etiquetas()).to.deep.equal({ '20123456786': [], '27000000408': [] });
        });

        it("never reaches another account's tag or CUIT: not found, and the other account's stays as it was", async () => {

            const mine = await estudio();
            const theirs = await estudio();
            await cli('tag', 'create', '--account', theirs.account, '--name', 'Ajena', '--color', '#111111');
            await cli('tag', 'assign', '--account', theirs.account, '--cuit', '20123456786', '--name', 'Ajena');
            await cli('tag', 'create', '--account', mine.account, '--name', 'Propia', '--color', '#222222');

            // Their tag on my CUIT, my tag on their CUIT (the same number, a client of each).
            cliRefusal(await cli('tag', 'assign', '--account', mine.account, '--cuit', '20123456786', '--name', 'Ajena'), messages.admin.tagNotFound('Ajena'));
            cliRefusal(await cli('tag', 'unassign', '--account', mine.account, '--cuit', '20123456786', '--name', 'Ajena'), messages.admin.tagNotFound('Ajena'));
            cliRefusal(await cli('tag', 'update', '--account', mine.account, '--name', 'Ajena', '--new-name', 'Robada', '--color', '#000000'), messages.admin.tagNotFound('Ajena'));
            cliRefusal(await cli('tag', 'delete', '--account', mine.account, '--name', 'Ajena'), messages.admin.tagNotFound('Ajena'));
            // A name taken in the other account is free in this one.
            expect((await cli('tag', 'update', '--account', mine.account, '--name', 'Propia', '--new-name', 'Ajena', '--color', '#222222')).code).to.equal(0);

            expect(await theirs.tags()).to.deep.equal([{ nombre: 'Ajena', color: '#111111' }]);
            expect(await theirs.etiquetas()).to.deep.equal({ '20123456786': ['Ajena'], '27000000408': [] });
            expect(await mine.tags()).to.deep.equal([{ nombre: 'Ajena', color: '#222222' }]);
            expect(await mine.etiquetas()).to.deep.equal({ '20123456786': [], '27000000408': [] });
        });
    });
}
