import type { Knex } from 'knex';
import type { InstallationRepository } from '../../../core/ports/index.js';

const internals = {
    demo: 'demo.process'
};

export const installationRepository = (knex: Knex): InstallationRepository => ({

    async isSimulated() {

        return Boolean(await knex('installation').where({ name: 'authority', value: 'simulated' }).first());
    },

    async markSimulated() {

        await knex('installation').insert({ name: 'authority', value: 'simulated' }).onConflict('name').merge();
    },

    async demoProcess() {

        const row = await knex('installation').where({ name: internals.demo }).first() as { value: string } | undefined;
        return row?.value ?? null;
    },

    async claimDemo(process) {

        await knex('installation').insert({ name: internals.demo, value: process }).onConflict('name').merge();
    },

    async releaseDemo(process) {

        await knex('installation').where({ name: internals.demo, value: process }).delete();
    }
});
