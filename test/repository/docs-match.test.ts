import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { defaultFesMinGapMs } from '../../adapters/authority/simulated/index.js';
import { runInProcess } from '../support/cli.js';

// What the documentation states where the code decides it (issue 37, item 10): the simulated
// authority's help reads the pacing the simulator applies, the README says what `npm install`
// may need to compile, and where `sincronizacion.completada` is documented its counts are said
// as the repositories make them (the CCMA's balances one record, the SCT's three lists).
// The OpenAPI document's token text: openapi.test.ts.

const internals = {
    read: (path: string): Promise<string> => readFile(new URL(`../../${path}`, import.meta.url), 'utf8'),

    // One paragraph's words on one line, whatever the wrapping.
    flat: (text: string): string => text.replace(/\s+/g, ' ')
};

describe('the documentation matches the code', () => {

    it('`authority simulate --help` states the fes gap the simulator uses', async () => {

        const help = await runInProcess(['authority', 'simulate', '--help']);
        expect(help.code).to.equal(0);
        expect(internals.flat(help.stdout)).to.contain(`--fes-gap-ms <ms> Mis Comprobantes responde "BL…" a pedidos más seguidos que esto (por omisión ${defaultFesMinGapMs};`);
    });

    it('the README says `npm install` may compile better-sqlite3, and with what', async () => {

        const readme = internals.flat(await internals.read('README.md'));
        const requirements = readme.slice(readme.indexOf('Requirements:'), readme.indexOf('## Quick start'));
        expect(requirements).to.contain('better-sqlite3');
        for (const tool of ['python3', 'make', 'g++']) {
            expect(requirements, tool).to.contain(tool);
        }
    });

    it('says where `sincronizacion.completada` is documented what its counts include', async () => {

        for (const [path, start] of [['README.md', 'Events: `sincronizacion.completada`'], ['docs/architecture.md', '`sincronizacion.completada` is one event']]) {
            const text = internals.flat(await internals.read(path));
            expect(text, path).to.contain(start);
            const said = text.slice(text.indexOf(start), text.indexOf(start) + 600);
            expect(said, path).to.match(/SCT's (three lists|add up its three lists)/);
            expect(said, path).to.match(/CCMA's (balances one record|count its movements and its balances as one more record)/);
        }
    });
});
