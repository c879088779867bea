import type { Knex } from 'knex';

// The whole data model. Timestamps are epoch milliseconds (BIGINT), calendar dates
// 'YYYY-MM-DD' strings, amounts DECIMAL. Every paged list has an index matching its filter
// and order.

const internals = {

    // MySQL tables in utf8mb4; name sort keys compare byte-wise so both databases order alike.
    table(knex: Knex, name: string, build: (table: Knex.CreateTableBuilder, mysql: boolean) => void) {

        const mysql = knex.client.config.client === 'mysql2';
        return knex.schema.createTable(name, (table) => {

            if (mysql) {
                table.engine('InnoDB');
                table.charset('utf8mb4');
                table.collate('utf8mb4_unicode_ci');
            }

            build(table, mysql);
        });
    },

    sortKey(table: Knex.CreateTableBuilder, mysql: boolean) {

        const column = table.string('sort_name', 255).notNullable();
        if (mysql) {
            column.collate('utf8mb4_bin');
        }
    },

    money: (table: Knex.CreateTableBuilder, name: string) => table.decimal(name, 18, 2)
};

export const up = async (knex: Knex): Promise<void> => {

    await internals.table(knex, 'accounts', (table) => {

        table.increments('id');
        table.string('name', 200).notNullable();
        table.boolean('writing_enabled').notNullable().defaultTo(false);
        table.string('subscription', 16).notNullable().defaultTo('active');
        table.bigInteger('created_at').notNullable();
    });

    await internals.table(knex, 'users', (table) => {

        table.increments('id');
        table.integer('account_id').unsigned().notNullable().references('accounts.id').onDelete('CASCADE');
        table.string('email', 254).notNullable().unique();
        table.string('role', 16).notNullable();
        table.string('password_hash', 255).nullable();
        table.bigInteger('created_at').notNullable();
        table.index(['account_id']);
    });

    await internals.table(knex, 'tokens', (table) => {

        table.increments('id');
        table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE');
        table.string('name', 200).nullable();
        table.string('token_hash', 64).notNullable().unique();
        table.string('hint', 16).notNullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('revoked_at').nullable();
        table.index(['user_id']);
    });

    await internals.table(knex, 'clients', (table, mysql) => {

        table.increments('id');
        table.string('public_id', 36).notNullable().unique();
        table.integer('account_id').unsigned().notNullable().references('accounts.id').onDelete('CASCADE');
        table.string('cuit', 11).notNullable();
        table.string('tipo', 20).notNullable();
        table.string('nombre', 200).nullable();
        table.string('apellido', 200).nullable();
        table.string('razon_social', 255).nullable();
        table.integer('representative_id').unsigned().nullable().references('clients.id');
        table.string('display_name', 420).notNullable();
        internals.sortKey(table, mysql);
        table.string('email', 254).nullable();
        table.string('telefono', 60).nullable();
        table.text('clave_arca').nullable();             // sealed by the SecretBox, never plaintext
        table.boolean('monotributista').nullable();
        table.boolean('autonomo').nullable();
        table.string('categoria', 1).nullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('updated_at').notNullable();
        table.unique(['account_id', 'cuit']);             // one CUIT per account, enforced by the database
        table.index(['account_id', 'sort_name', 'id']);  // GET /v1/cuits order
        table.index(['representative_id']);
    });

    await internals.table(knex, 'user_clients', (table) => {

        table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE');
        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.primary(['user_id', 'client_id']);
        table.index(['client_id']);
    });

    await internals.table(knex, 'tags', (table, mysql) => {

        table.increments('id');
        table.integer('account_id').unsigned().notNullable().references('accounts.id').onDelete('CASCADE');
        table.string('name', 100).notNullable();
        internals.sortKey(table, mysql);
        table.string('color', 16).notNullable();
        // Names are unique and matched ignoring case and accents, alike on both databases.
        table.unique(['account_id', 'sort_name']);       // also serves GET /v1/tags order
    });

    await internals.table(knex, 'client_tags', (table) => {

        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.integer('tag_id').unsigned().notNullable().references('tags.id').onDelete('CASCADE');
        table.primary(['client_id', 'tag_id']);
        table.index(['tag_id', 'client_id']);
    });

    // Per client and system: the last success (the API's syncedAt) and the last failure.
    await internals.table(knex, 'sync_states', (table) => {

        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.string('system', 24).notNullable();
        table.bigInteger('synced_at').nullable();
        table.bigInteger('last_attempt_at').nullable();
        table.text('last_error').nullable();
        table.primary(['client_id', 'system']);
    });

    await internals.table(knex, 'sync_jobs', (table) => {

        table.bigIncrements('id');
        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.string('reason', 16).notNullable();              // first, daily, forced
        table.string('status', 16).notNullable();              // pending, running, done, failed, cancelled
        table.bigInteger('run_after').notNullable();
        table.string('lease_owner', 64).nullable();
        table.bigInteger('lease_expires_at').nullable();
        table.integer('attempts').notNullable().defaultTo(0);
        table.text('last_error').nullable();
        table.bigInteger('created_at').notNullable();
        table.bigInteger('finished_at').nullable();
        table.index(['status', 'run_after']);
        table.index(['client_id', 'status']);
    });

    // Issued (E) and received (R) invoices. issuer_key is '' for issued ones and the
    // issuer's CUIT for received ones, so the natural key has no NULL in it.
    await internals.table(knex, 'invoices', (table) => {

        table.bigIncrements('id');
        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.string('kind', 1).notNullable();
        table.string('fecha', 10).notNullable();
        table.string('tipo', 8).notNullable();
        table.string('punto_venta', 8).notNullable();
        table.string('numero_desde', 20).notNullable();
        table.string('numero_hasta', 20).notNullable();
        table.string('issuer_key', 20).notNullable();
        table.string('codigo_autorizacion', 20).nullable();
        table.string('counterpart_doc_type', 8).nullable();
        table.string('counterpart_doc_number', 20).nullable();
        table.string('counterpart_name', 255).nullable();
        internals.money(table, 'imp_neto_gravado').nullable();
        internals.money(table, 'imp_neto_no_gravado').nullable();
        internals.money(table, 'imp_op_exentas').nullable();
        internals.money(table, 'otros_tributos').nullable();
        internals.money(table, 'iva').nullable();
        table.decimal('tipo_cambio', 18, 6).notNullable();
        internals.money(table, 'importe_original').notNullable();
        table.string('moneda_original', 8).notNullable();
        internals.money(table, 'importe').notNullable();
        table.unique(['client_id', 'kind', 'issuer_key', 'tipo', 'punto_venta', 'numero_desde'], { indexName: 'invoices_natural_key' });
        table.index(['client_id', 'kind', 'fecha', 'id'], 'invoices_list');
    });

    await internals.table(knex, 'sct_debts', (table) => {

        table.bigIncrements('id');
        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.integer('position').notNullable();
        table.string('establecimiento', 100).notNullable();
        table.string('impuesto', 200).notNullable();
        table.string('concepto', 200).notNullable();
        table.string('subconcepto', 200).notNullable();
        table.string('periodo', 6).notNullable();
        table.string('ant_cuota', 20).notNullable();
        table.bigInteger('vencimiento').nullable();
        internals.money(table, 'saldo').notNullable();
        internals.money(table, 'int_resarcitorios').notNullable();
        internals.money(table, 'int_punitorios').notNullable();
        table.index(['client_id', 'position']);
    });

    await internals.table(knex, 'sct_due_dates', (table) => {

        table.bigIncrements('id');
        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.integer('position').notNullable();
        table.string('impuesto', 200).notNullable();
        table.string('concepto', 200).notNullable();
        table.string('subconcepto', 200).notNullable();
        table.string('periodo', 6).notNullable();
        table.string('ant_cuota', 20).notNullable();
        table.bigInteger('vencimiento').notNullable();
        table.string('detalle', 500).notNullable();
        table.index(['client_id', 'position']);
    });

    await internals.table(knex, 'sct_returns', (table) => {

        table.bigIncrements('id');
        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.integer('position').notNullable();
        table.string('establecimiento', 100).notNullable();
        table.string('impuesto', 200).notNullable();
        table.string('concepto', 200).notNullable();
        table.string('subconcepto', 200).notNullable();
        table.string('periodo', 6).notNullable();
        table.string('ant_cuota', 20).notNullable();
        table.bigInteger('vencimiento').notNullable();
        table.index(['client_id', 'position']);
    });

    await internals.table(knex, 'ccma_balances', (table) => {

        table.integer('client_id').unsigned().notNullable().primary().references('clients.id').onDelete('CASCADE');
        internals.money(table, 'saldo_deudor').nullable();
        internals.money(table, 'saldo_acreedor').nullable();
    });

    await internals.table(knex, 'ccma_movements', (table) => {

        table.bigIncrements('id');
        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.string('period_key', 6).notNullable();          // YYYYMM, shown as MM/YYYY
        table.integer('orden').notNullable();
        table.string('impuesto', 200).notNullable();
        table.string('concepto', 200).notNullable();
        table.string('subconcepto', 200).notNullable();
        table.string('descripcion', 500).notNullable();
        table.bigInteger('fecha_movimiento').notNullable();
        internals.money(table, 'debe').nullable();
        internals.money(table, 'haber').nullable();
        internals.money(table, 'saldo').notNullable();
        table.index(['client_id', 'period_key', 'orden'], 'ccma_movements_list');
    });

    await internals.table(knex, 'dfe_notifications', (table) => {

        table.bigIncrements('id');
        table.integer('client_id').unsigned().notNullable().references('clients.id').onDelete('CASCADE');
        table.string('arca_id', 40).nullable();
        table.string('tipo', 100).nullable();
        table.string('asunto', 500).notNullable();
        table.string('organismo', 200).nullable();
        table.bigInteger('fecha_recepcion').notNullable();
        table.bigInteger('fecha_notificacion').nullable();
        table.bigInteger('leida_at').nullable();
        table.unique(['client_id', 'arca_id']);
        table.index(['client_id', 'fecha_recepcion', 'id'], 'dfe_notifications_list');
    });

    // One row per user: the current minute's and month's request counts (docs/api.md, Limits).
    await internals.table(knex, 'rate_limits', (table) => {

        table.integer('user_id').unsigned().notNullable().primary().references('users.id').onDelete('CASCADE');
        table.bigInteger('minute_start').notNullable();
        table.integer('minute_count').notNullable();
        table.bigInteger('month_start').notNullable();
        table.integer('month_count').notNullable();
    });
};

export const down = async (knex: Knex): Promise<void> => {

    for (const table of [
        'rate_limits',
        'dfe_notifications',
        'ccma_movements',
        'ccma_balances',
        'sct_returns',
        'sct_due_dates',
        'sct_debts',
        'invoices',
        'sync_jobs',
        'sync_states',
        'client_tags',
        'tags',
        'user_clients',
        'clients',
        'tokens',
        'users',
        'accounts'
    ]) {
        await knex.schema.dropTableIfExists(table);
    }
};
