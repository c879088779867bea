import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { messages } from '../../../core/domain/messages.js';
import { setPassword } from '../../../core/use-cases/staff/set-password.js';
import { clientFormTexts } from '../../../servers/panel/client-form-texts.js';
import { debianChromium, pageProblems, panelSignIn, skipWithoutChromium } from '../../support/chromium.js';
import { testDatabases } from '../../support/databases.js';
import type { SeededUser } from '../../support/fixtures.js';
import { seedAccount } from '../../support/fixtures.js';
import type { TestServer } from '../../support/server.js';
import { startTestServer, writeServerEnv } from '../../support/server.js';

// Clients created, edited and deleted in Debian's Chromium (docs/panel.md, Los clientes): a
// persona física (after a refusal shown beside its field) and a legal entity it represents,
// an edit, and a deletion REST then answers with 404. Screenshots go to test-artifacts/.

const internals = {
    artifacts: fileURLToPath(new URL('../../../test-artifacts/', import.meta.url)),
    password: 'una-clave-larga-de-prueba',
    key: 'Clave-Fiscal-Navegador-3',
    f: clientFormTexts
};

for (const database of testDatabases()) {

    describe(`the panel's client forms in a browser (${database.name})`, function () {

        this.timeout(60_000);

        let server: TestServer;
        let browser: Browser;
        let owner: SeededUser;
        let email: string;

        before(async function () {

            skipWithoutChromium(this);
            server = await startTestServer(database, { env: writeServerEnv });
            const ports = server.app.ports;
            // Without API writing: the panel does not need it.
            owner = await seedAccount(ports, { writing: false });
            await setPassword(ports, { userId: owner.userId, password: internals.password });
            email = (await ports.users.findById(owner.userId))!.email;
            browser = await chromium.launch({ executablePath: debianChromium.path, args: debianChromium.args });
            mkdirSync(internals.artifacts, { recursive: true });
        });

        after(async () => {

            await browser?.close();
            await server?.stop();
        });

        it('creates a persona física and a legal entity, edits one, deletes it and REST answers 404', async () => {

            const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
            const page = await context.newPage();
            const problems = pageProblems(page, server.url);
            const { f } = internals;

            await panelSignIn(page, server.url, email, internals.password);

            // A persona física, first with a malformed CUIT: refused beside the field, the rest kept.
            await page.getByRole('link', { name: f.newClient }).click();
            await page.getByLabel(f.tipos['persona-fisica']).check();
            await page.getByLabel(f.labels.cuit, { exact: true }).fill('20-1234');
            await page.getByLabel(f.labels.nombre, { exact: true }).fill('Marta');
            await page.getByLabel(f.labels.apellido).fill('Quiroga');
            await page.getByLabel(f.labels.clave_arca).fill(internals.key);
            await page.getByRole('button', { name: f.create }).click();
            const cuitField = page.getByLabel(f.labels.cuit, { exact: true });
            await page.getByText(messages.clientWrite.cuit).waitFor();
            expect(await cuitField.getAttribute('aria-invalid')).to.equal('true');
            expect(await page.getByLabel(f.labels.apellido).inputValue()).to.equal('Quiroga');
            expect(await page.getByLabel(f.labels.clave_arca).inputValue(), 'the key is not sent back').to.equal('');
            await page.screenshot({ path: join(internals.artifacts, `panel-cliente-nuevo-error-${database.name}.png`), fullPage: true });

            await cuitField.fill('20-31234567-7');
            await page.getByLabel(f.labels.clave_arca).fill(internals.key);
            await page.getByRole('button', { name: f.create }).click();
            await page.getByText(f.created).waitFor();
            expect(page.url()).to.contain('/panel/clientes/20-31234567-7');
            expect(await page.content()).to.not.contain(internals.key);

            // A legal entity represented by her.
            await page.goto(`${server.url}/panel`);
            await page.getByRole('link', { name: f.newClient }).click();
            await page.getByLabel(f.tipos['persona-juridica']).check();
            await page.getByLabel(f.labels.cuit, { exact: true }).fill('30718888889');
            await page.getByLabel(f.labels.razon_social).fill('Molinos del Sur SA');
            await page.getByLabel(f.labels.representante).fill('20-31234567-7');
            await page.getByLabel(f.labels.email).fill('administracion@example.com');
            await page.getByRole('button', { name: f.create }).click();
            await page.getByText(f.created).waitFor();
            const listed = (await server.ok('/v1/cuits', owner.token)).data as { cuit: string; tipo: string; nombre: string }[];
            expect(listed.map(({ cuit, tipo, nombre }) => ({ cuit, tipo, nombre }))).to.deep.equal([
                { cuit: '30718888889', tipo: 'persona-juridica', nombre: 'Molinos del Sur SA' },
                { cuit: '20312345677', tipo: 'persona-fisica', nombre: 'Quiroga, Marta' }
            ]);

            // Edit it: the new name, REST shows it.
            await page.getByRole('link', { name: f.edit, exact: true }).click();
            expect(await page.getByLabel(f.labels.razon_social).inputValue()).to.equal('Molinos del Sur SA');
            await page.getByLabel(f.labels.razon_social).fill('Molinos del Sur SRL');
            await page.getByRole('button', { name: f.save }).click();
            await page.getByText(f.updated).waitFor();
            await page.screenshot({ path: join(internals.artifacts, `panel-cliente-editado-${database.name}.png`), fullPage: true });
            expect((await server.ok('/v1/cuits/30718888889/sct', owner.token)).syncedAt).to.equal(null);
            expect(((await server.ok('/v1/cuits', owner.token)).data as { nombre: string }[]).map((client) => client.nombre)).to.include('Molinos del Sur SRL');

            // Delete it, after the page says what goes with it.
            await page.getByRole('link', { name: f.remove, exact: true }).click();
            await page.getByText(f.cascade.invoices).waitFor();
            await page.screenshot({ path: join(internals.artifacts, `panel-cliente-borrar-${database.name}.png`), fullPage: true });
            await page.getByRole('button', { name: f.confirmDelete }).click();
            await page.waitForURL((url) => url.pathname === '/panel');
            await page.getByText(f.deleted('30-71888888-9')).waitFor();
            expect((await server.request('/v1/cuits/30718888889/sct', { token: owner.token })).status).to.equal(404);
            expect(await page.content()).to.not.contain('Molinos del Sur');
            // The one failed load is the refused form, answered 400 on purpose.
            expect(problems).to.deep.equal([`400 ${server.url}/panel/clientes/nuevo`, 'Failed to load resource: the server responded with a status of 400 (Bad Request)']);
            await context.close();
        });
    });
}
