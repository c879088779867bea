import { expect } from 'chai';
import { connect, unsupportedServer } from '../../../adapters/knex/connection.js';
import { migrateLatest } from '../../../adapters/knex/migrations/index.js';
import { testDatabases } from '../../support/databases.js';

// A MySQL server older than 8.0.4, or a MariaDB older than 10.6 (untested, past their end of
// life), is refused before migrating, with an error that names it, instead of failing later.

describe('the MySQL server arcasync runs on', () => {

    it('accepts MySQL 8.0.4 or later and MariaDB 10.6 or later', () => {

        for (const version of ['8.0.4', '8.0.36', '8.4.3', '9.1.0', '10.6.0-MariaDB', '10.11.6-MariaDB-0+deb12u1', '11.4.2-MariaDB-log']) {
            expect(unsupportedServer(version), version).to.equal(null);
        }
    });

    it('refuses older servers, naming the one found and what is required', () => {

        expect(unsupportedServer('10.5.23-MariaDB')).to.equal(
            'el servidor de base de datos es MariaDB 10.5.23-MariaDB: arcasync requiere MySQL 8.0.4 o posterior, o MariaDB 10.6 o posterior'
        );
        expect(unsupportedServer('8.0.3-rc-log')).to.equal(
            'el servidor de base de datos es MySQL 8.0.3-rc-log: arcasync requiere MySQL 8.0.4 o posterior, o MariaDB 10.6 o posterior'
        );
        for (const version of ['5.7.44', '10.3.39-MariaDB', '']) {
            expect(unsupportedServer(version), version).to.be.a('string');
        }
    });

    for (const database of testDatabases()) {

        it(`migrates the server of this run (${database.name})`, async () => {

            const db = await database.create();
            const knex = connect(db.url);
            try {
                expect(await migrateLatest(knex)).to.include('001_initial');
            }
            finally {
                await knex.destroy();
                await db.release();
            }
        });
    }
});
