import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { connect } from '../../../adapters/knex/connection.js';
import type { Cuit } from '../../../core/domain/cuit.js';
import { messages } from '../../../core/domain/messages.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { importLimits } from '../../../core/use-cases/import-rows.js';
import { importTexts } from '../../../servers/panel/import-texts.js';
import { panelTexts } from '../../../servers/panel/texts.js';
import { cuitSequence } from '../../support/client-bodies.js';
import { fiftyRowsWithThreeBad, importHeader } from '../../support/import-files.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { addClient, seedAccount, seedUser } from '../../support/fixtures.js';
import type { PanelAgent } from '../../support/panel.js';
import { panelAgent } from '../../support/panel.js';
import type { TestResponse, TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// Importar clientes over HTTP (docs/panel.md): a CSV of 50 clients with 3 bad rows previewed
// (exactly those 3 listed, nothing stored), confirmed (the 47 stored, REST lists them, each
// with its first sync), the Excel path, the CSRF check on both forms, no key on any page or in
// the stored pending import, another user's pending import refused, and the file's refusals
// (empty, too large, too many rows, not a spreadsheet, not UTF-8) as 4xx pages in Spanish.

const internals = {
    password: 'una-clave-larga-de-prueba',
    nextCuit: cuitSequence(60_000_000),
    header: importHeader,
    keyOf: (cuit: string): string => `Clave-Import-${cuit}`,

    // The table rows' numbers of a preview's or report's list of bad rows.
    refusedRows: (html: string): number[] => {

        const table = /<table id="filas-con-errores">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
        return [...table.matchAll(/<th scope="row"[^>]*>(\d+)<\/th>/g)].map((match) => Number(match[1]));
    },

    // A text as a page shows it (Handlebars escapes quotes).
    escaped: (text: string): string => text.replace(/'/g, '&#x27;').replace(/"/g, '&quot;'),

    importId: (html: string): string | null => /name="importacion" value="([^"]+)"/.exec(html)?.[1] ?? null,
    crumbOf: (html: string): string => /name="arcasync-crumb" value="([^"]*)"/.exec(html)![1]!,

    // A multipart form as a browser sends it: the CSRF field, then the file.
    async upload(server: TestServer, agent: PanelAgent, file: Buffer, options: { name?: string; crumb?: string | null } = {}): Promise<TestResponse> {

        const form = await agent.get('/panel/clientes/importar');
        const crumb = options.crumb === undefined ? internals.crumbOf(form.text) : options.crumb;
        const boundary = '----arcasyncPrueba7MA4YWxkTrZu0gW';
        const parts: Buffer[] = [];
        if (crumb !== null) {
            parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="arcasync-crumb"\r\n\r\n${crumb}\r\n`));
        }

        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="archivo"; filename="${options.name ?? 'clientes.csv'}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
        parts.push(file, Buffer.from(`\r\n--${boundary}--\r\n`));
        const response = await server.server.inject({
            method: 'POST',
            url: '/panel/clientes/importar',
            headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
            payload: Buffer.concat(parts)
        });
        return { status: response.statusCode, headers: new Headers(), text: response.payload, body: undefined };
    }
};

for (const database of testDatabases()) {

    describe(`the panel's client import (${database.name})`, function () {

        this.timeout(120_000);

        let server: TestServer;
        let owner: SeededUser;
        let ownerEmail: string;
        let memberEmail: string;
        let otherEmail: string;
        let other: SeededUser;
        let member: SeededUser;

        before(async () => {

            server = await startTestServer(database, { env: writeServerEnv, inject: true });
            const ports = server.app.ports;
            owner = await seedAccount(ports);
            member = await seedUser(ports, owner.accountId, 'member');
            other = await seedAccount(ports);
            for (const user of [owner, member, other]) {
                await setPassword(ports, { userId: user.userId, password: internals.password });
            }

            const emailOf = async (user: SeededUser) => (await ports.users.findById(user.userId))!.email;
            [ownerEmail, memberEmail, otherEmail] = await Promise.all([owner, member, other].map(emailOf));
        });

        after(async () => {

            await server?.stop();
        });

        const signedIn = async (email: string): Promise<PanelAgent> => {

            const agent = panelAgent(server);
            const answer = await agent.signIn(email, internals.password);
            expect(answer.status, answer.text.slice(0, 2000)).to.equal(303);
            return agent;
        };

        const listed = async (): Promise<string[]> => {

            const page = await server.request('/v1/cuits?limit=100', { token: owner.token });
            expect(page.status).to.equal(200);
            return page.body.data.map((client: { cuit: string }) => client.cuit);
        };

        it('previews 50 rows listing exactly the 3 bad ones, stores nothing, then imports the 47 on confirmation', async () => {

            const agent = await signedIn(ownerEmail);
            const before = await listed();
            const { csv, good, bad, keys } = fiftyRowsWithThreeBad(internals.nextCuit, internals.keyOf);

            const preview = await internals.upload(server, agent, Buffer.from(csv));
            expect(preview.status, preview.text.slice(0, 3000)).to.equal(200);
            expect(internals.refusedRows(preview.text)).to.deep.equal(bad);
            expect(preview.text).to.contain(internals.escaped(messages.clientWrite.cuit));
            expect(preview.text).to.contain(internals.escaped(messages.clientWrite.required('clave_arca')));
            expect(preview.text).to.contain(messages.clientImport.duplicate(5));
            expect(preview.text).to.contain(importTexts.summary(47, 3));
            for (const key of keys) {
                expect(preview.text).to.not.contain(key);
            }

            expect(await listed()).to.deep.equal(before);

            // The pending import keeps the keys sealed.
            const knex = connect(server.app.config.databaseUrl);
            try {
                const stored = await knex('client_imports').select('sealed_rows', 'account_id', 'user_id');
                expect(stored).to.have.length(1);
                expect(stored[0].sealed_rows).to.not.contain(keys[0]);
                expect(Number(stored[0].user_id)).to.equal(owner.userId);
            }
            finally {
                await knex.destroy();
            }

            const id = internals.importId(preview.text)!;
            const done = await agent.post('/panel/clientes/importar/confirmar', { importacion: id });
            expect(done.status, done.text.slice(0, 3000)).to.equal(200);
            expect(done.text).to.contain(importTexts.imported(47));
            expect(internals.refusedRows(done.text)).to.deep.equal(bad);
            for (const key of keys) {
                expect(done.text).to.not.contain(key);
            }

            expect(await listed()).to.have.members([...before, ...good]);
            type Listed = { cuit: string; tipo: string; nombre: string; email: string | null };
            const page = (await server.request('/v1/cuits?limit=100', { token: owner.token })).body.data as Listed[];
            expect(page.find((client) => client.cuit === good[0])).to.deep.include({ tipo: 'persona-fisica', nombre: 'Pérez; Gómez, Ana 0', email: 'ana0@example.com' });
            expect(page.find((client) => client.cuit === good[45])).to.deep.include({ tipo: 'persona-juridica', nombre: 'Empresa 0 SRL' });
            const stored = (cuit: string) => server.app.ports.clients.findInAccount(owner.accountId, cuit as Cuit);
            const [entity, representative] = await Promise.all([stored(good[45]!), stored(good[0]!)]);
            expect(entity!.representativeId).to.equal(representative!.id);
            expect((await server.app.ports.jobQueue.counts(undefined, server.clock.now().getTime())).pending).to.equal(47);

            // Once: the same form again finds nothing to import.
            const again = await agent.post('/panel/clientes/importar/confirmar', { importacion: id });
            expect(again.status).to.equal(404);
            expect(again.text).to.contain(messages.clientImport.gone);
            expect(await listed()).to.have.length(before.length + 47);
        });

        it('queues the imported clients\' first syncs without starving another account\'s new CUIT', async () => {

            // After the 47 first jobs above: another account's client, due at the same time.
            const now = server.clock.now().getTime();
            const theirs = await addClient(server.app.ports, other.accountId, { cuit: internals.nextCuit(), claveArca: 'clave-de-otra-cuenta' });
            await server.app.ports.jobQueue.enqueue(theirs.id, 'first', now);
            const claimed = [];
            for (let i = 0; i < 2; ++i) {
                claimed.push((await server.app.ports.jobQueue.claim({ owner: 'prueba', now, leaseMs: 60_000 }))!.clientId);
            }

            expect(claimed).to.include(theirs.id);
        });

        it('reads an Excel workbook (CUITs as numbers too), and offers both templates', async () => {

            const agent = await signedIn(ownerEmail);
            const [person, entity] = [internals.nextCuit(), internals.nextCuit('30')];
            const workbook = new ExcelJS.Workbook();
            const sheet = workbook.addWorksheet('Hoja1');
            sheet.addRow(['tipo', 'cuit', 'nombre', 'apellido', 'razon_social', 'representante', 'clave_arca']);
            sheet.addRow(['persona-fisica', Number(person), 'Luis', 'Excel', null, null, 'clave excel 1']);
            sheet.addRow(['persona-juridica', entity, null, null, 'Planilla SA', person, null]);
            sheet.addRow(['persona-fisica', 'no-es-cuit', 'Mal', 'Dato', null, null, 'x']);
            const preview = await internals.upload(server, agent, Buffer.from(await workbook.xlsx.writeBuffer()), { name: 'clientes.xlsx' });
            expect(preview.status, preview.text.slice(0, 3000)).to.equal(200);
            expect(internals.refusedRows(preview.text)).to.deep.equal([4]);
            expect(preview.text).to.not.contain('clave excel 1');

            const done = await agent.post('/panel/clientes/importar/confirmar', { importacion: internals.importId(preview.text)! });
            expect(done.text).to.contain(importTexts.imported(2));
            expect(await listed()).to.include.members([person, entity]);

            const csv = await agent.get('/panel/clientes/importar/plantilla.csv');
            expect(csv.status).to.equal(200);
            expect(csv.headers.get('content-disposition')).to.contain('plantilla-clientes.csv');
            expect(csv.text.startsWith(`\uFEFF${internals.header}\r\n`)).to.equal(true);

            const xlsx = await server.server.inject({ url: '/panel/clientes/importar/plantilla.xlsx', headers: { cookie: [...agent.cookies].map(([n, v]) => `${n}=${v}`).join('; ') } });
            expect(xlsx.statusCode).to.equal(200);
            const template = new ExcelJS.Workbook();
            await template.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
            expect(template.worksheets[0]!.getRow(1).values).to.deep.equal([undefined, ...internals.header.split(';')]);
        });

        it('refuses both forms without their CSRF token or with another browser\'s', async () => {

            const agent = await signedIn(ownerEmail);
            const file = Buffer.from(`${internals.header}\npersona-fisica;${internals.nextCuit()};A;B;;;k;;\n`);
            const missing = await internals.upload(server, agent, file, { crumb: null });
            expect(missing.status).to.equal(403);
            expect(missing.text).to.contain(panelTexts.formExpired);

            const stranger = panelAgent(server);
            await stranger.get('/panel/ingresar');
            const foreign = await internals.upload(server, agent, file, { crumb: stranger.cookies.get('arcasync-crumb')! });
            expect(foreign.status).to.equal(403);

            const preview = await internals.upload(server, agent, file);
            const id = internals.importId(preview.text)!;
            const unsigned = await agent.post('/panel/clientes/importar/confirmar', { importacion: id }, { crumb: false });
            expect(unsigned.status).to.equal(403);
            // Refused, it was not used up.
            expect((await agent.post('/panel/clientes/importar/confirmar', { importacion: id })).text).to.contain(importTexts.imported(1));
        });

        it('keeps a pending import to its own user: a colleague or another account cannot confirm it', async () => {

            const agent = await signedIn(ownerEmail);
            const cuit = internals.nextCuit();
            const preview = await internals.upload(server, agent, Buffer.from(`${internals.header}\npersona-fisica;${cuit};A;B;;;k;;\n`));
            const id = internals.importId(preview.text)!;

            for (const email of [memberEmail, otherEmail]) {
                const someone = await signedIn(email);
                await someone.get('/panel/clientes/importar');
                const refused = await someone.post('/panel/clientes/importar/confirmar', { importacion: id });
                expect(refused.status).to.equal(404);
                expect(refused.text).to.contain(messages.clientImport.gone);
            }

            expect(await listed()).to.not.include(cuit);
            expect((await agent.post('/panel/clientes/importar/confirmar', { importacion: id })).text).to.contain(importTexts.imported(1));
        });

        it('keeps one pending import per user: a new upload replaces the previous one, and expired ones are deleted', async () => {

            const pendingOf = async (userId: number): Promise<number> => {

                const knex = connect(server.app.config.databaseUrl);
                try {
                    return (await knex('client_imports').where({ user_id: userId }).select('id')).length;
                }
                finally {
                    await knex.destroy();
                }
            };

            const agent = await signedIn(ownerEmail);
            const fileOf = (cuit: string) => Buffer.from(`${internals.header}\npersona-fisica;${cuit};A;B;;;k;;\n`);
            const [first, corrected] = [internals.nextCuit(), internals.nextCuit()];
            const older = internals.importId((await internals.upload(server, agent, fileOf(first))).text)!;
            const newer = internals.importId((await internals.upload(server, agent, fileOf(corrected))).text)!;
            expect(newer).to.not.equal(older);
            expect(await pendingOf(owner.userId)).to.equal(1);

            // The older preview, confirmed from a tab left open: gone; the newer one imports.
            await agent.get('/panel/clientes/importar');
            const stale = await agent.post('/panel/clientes/importar/confirmar', { importacion: older });
            expect(stale.status).to.equal(404);
            expect(stale.text).to.contain(messages.clientImport.gone);
            expect((await agent.post('/panel/clientes/importar/confirmar', { importacion: newer })).text).to.contain(importTexts.imported(1));
            expect(await listed()).to.include(corrected).and.not.include(first);

            // A colleague's upload is its own; expired, it goes with the next upload, anyone's.
            const colleague = await signedIn(memberEmail);
            await internals.upload(server, colleague, fileOf(internals.nextCuit()));
            expect(await pendingOf(member.userId)).to.equal(1);
            server.clock.advance(importLimits.pendingMs);
            const someoneElse = await signedIn(otherEmail);
            expect((await internals.upload(server, someoneElse, fileOf(internals.nextCuit()))).status).to.equal(200);
            expect([await pendingOf(member.userId), await pendingOf(other.userId)]).to.deep.equal([0, 1]);
        });

        it('assigns a member\'s imported CUITs to it, and refuses a representative it does not manage', async () => {

            const agent = await signedIn(memberEmail);
            const [ownersPerson] = await listed();
            const [mine, entity] = [internals.nextCuit(), internals.nextCuit('30')];
            const file = Buffer.from(`${internals.header}\npersona-fisica;${mine};Mía;B;;;k;;\npersona-juridica;${entity};;;Ajena SA;${ownersPerson};;;\n`);
            const preview = await internals.upload(server, agent, file);
            expect(internals.refusedRows(preview.text)).to.deep.equal([3]);
            expect(preview.text).to.contain(internals.escaped(messages.clientWrite.representativeNotFound));
            await agent.post('/panel/clientes/importar/confirmar', { importacion: internals.importId(preview.text)! });
            const theirs = await server.request('/v1/cuits?limit=100', { token: member.token });
            expect(theirs.body.data.map((client: { cuit: string }) => client.cuit)).to.deep.equal([mine]);
        });

        it('shows hostile cells and file names as text', async () => {

            const agent = await signedIn(ownerEmail);
            const hostile = '<img src=x onerror=alert(1)>';
            const file = Buffer.from(`${internals.header}\npersona-fisica;${hostile};${hostile};B;;;k;;\npersona-fisica;${internals.nextCuit()};${hostile};B;;;k;;\n`);
            const preview = await internals.upload(server, agent, file, { name: `${hostile}.csv` });
            expect(preview.status).to.equal(200);
            expect(internals.refusedRows(preview.text)).to.deep.equal([2]);
            expect(preview.text).to.not.contain('<img');
            expect(preview.text).to.contain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
        });

        it('answers files it cannot take with a Spanish 4xx page, never a 500', async () => {

            const agent = await signedIn(ownerEmail);
            const cases: [Buffer, number, string][] = [
                [Buffer.alloc(0), 400, importTexts.emptyFile],
                [Buffer.from(`${internals.header}\r\n;;;\r\n`), 400, messages.clientImport.empty],
                [Buffer.from('%PDF-1.4\u0000\u0001binario'), 400, importTexts.wrongFormat],
                [Buffer.from('PK\u0003\u0004roto'), 400, importTexts.wrongFormat],
                [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 400, importTexts.oldExcel],
                [Buffer.from(`${internals.header}\npersona-fisica;20123456786;Jos\xe9;P;;;k;;\n`, 'latin1'), 400, importTexts.notUtf8],
                [Buffer.from('nombre;cuit;edad\nAna;20123456786;30\n'), 400, importTexts.unknownColumns(['edad'])],
                [Buffer.alloc(6 * 1024 * 1024, 'a'), 413, importTexts.tooLarge],
                [Buffer.from([internals.header, ...Array.from({ length: importLimits.maxRows + 1 }, (_, i) => `persona-fisica;20${String(i).padStart(8, '0')}1;A;B;;;k;;`)].join('\n')), 400,
                    messages.clientImport.tooManyRows('5.000')]
            ];

            for (const [file, status, message] of cases) {
                const answer = await internals.upload(server, agent, file);
                expect(answer.status, message).to.equal(status);
                expect(answer.text, answer.text.slice(0, 3000)).to.contain(internals.escaped(message));
            }
        });
    });
}
