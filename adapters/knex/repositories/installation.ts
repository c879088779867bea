import type { Knex } from 'knex';
import type { InstallationRepository } from '../../../core/ports/index.js';

export const installationRepository = (knex: Knex): InstallationRepository => ({

    async isSimulated() {

        return Boolean(await knex('installation').where({ name: 'authority', value: 'simulated' }).first());
    },

    async markSimulated() {

        await knex('installation').insert({ name: 'authority', value: 'simulated' }).onConflict('name').merge();
    }
});
