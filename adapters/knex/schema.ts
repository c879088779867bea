// Every table as it is now, in one place (Ghost's schema.js): its columns with their types,
// sizes and nullability, its primary key and its indexes. The migrations (migrations/) are the
// history that built it and stay as they ran; this is what they add up to, so a reader learns a
// table here rather than by replaying them, and code that needs a column's size (a text cut to
// fit, a body limit published in the contract) reads it from here.
//
// test/schema-integrity.test.ts migrates a fresh database, SQLite and MySQL/MariaDB, and checks
// that it has exactly this: a migration that adds or changes a table changes its entry here in
// the same commit (a new table is one more entry, in alphabetical order), or that test names the
// table and column that differ.
//
// Types are knex's builder names: `increments` (an int primary key the database numbers,
// unsigned on MySQL), `bigIncrements`, `integer` and `bigInteger` (`unsigned` where a column
// holds another table's id), `boolean`, `decimal` (on SQLite a float), `string` (a varchar of
// `size` characters), `text` and `mediumtext` (on SQLite both text). Columns are not null unless
// `nullable`. Foreign keys and defaults are left to the migrations; MySQL's own index behind a
// foreign key with no index of its own (`…_foreign`) is not listed.

type ColumnType = 'increments' | 'bigIncrements' | 'integer' | 'bigInteger' | 'boolean' | 'decimal' | 'string' | 'text' | 'mediumtext';

export interface ColumnSpec {
    type: ColumnType;
    size?: number;
    precision?: number;
    scale?: number;
    unsigned?: boolean;
    nullable?: boolean;
}

interface IndexSpec {
    columns: readonly string[];
    unique?: boolean;
}

export interface TableSpec {
    columns: Readonly<Record<string, ColumnSpec>>;
    primary: readonly string[];
    indexes: Readonly<Record<string, IndexSpec>>;
}

export const schema = {
    accounts: {
        columns: {
            id: { type: 'increments' },
            name: { type: 'string', size: 200 },
            writing_enabled: { type: 'boolean' },
            subscription: { type: 'string', size: 16 },
            created_at: { type: 'bigInteger' },
            data_version: { type: 'bigInteger' }
        },
        primary: ['id'],
        indexes: {}
    },
    arca_keys: {
        columns: {
            key_id: { type: 'string', size: 64 },
            key_cuit: { type: 'string', size: 11 },
            proven_at: { type: 'bigInteger', nullable: true },
            refused_kind: { type: 'string', size: 24, nullable: true },
            refused_at: { type: 'bigInteger', nullable: true }
        },
        primary: ['key_id'],
        indexes: {
            arca_keys_cuit: { columns: ['key_cuit'] }
        }
    },
    arca_login_cuits: {
        columns: {
            key_cuit: { type: 'string', size: 11 },
            cleared_at: { type: 'bigInteger' }
        },
        primary: ['key_cuit'],
        indexes: {}
    },
    arca_meters: {
        columns: {
            client_id: { type: 'integer', unsigned: true },
            facturado: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            tope: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            periodo: { type: 'string', size: 100, nullable: true },
            debe_recategorizar: { type: 'boolean', nullable: true },
            recategorizacion_desde: { type: 'string', size: 10, nullable: true },
            recategorizacion_hasta: { type: 'string', size: 10, nullable: true },
            leido_at: { type: 'bigInteger' }
        },
        primary: ['client_id'],
        indexes: {}
    },
    authority_host_blocks: {
        columns: {
            host: { type: 'string', size: 100 },
            blocked_until: { type: 'bigInteger' },
            blocked_at: { type: 'bigInteger' },
            blocks: { type: 'integer' }
        },
        primary: ['host'],
        indexes: {}
    },
    calendar_feeds: {
        columns: {
            user_id: { type: 'integer', unsigned: true },
            token_hash: { type: 'string', size: 64 },
            hint: { type: 'string', size: 16 },
            created_at: { type: 'bigInteger' }
        },
        primary: ['user_id'],
        indexes: {
            calendar_feeds_token_hash_unique: { columns: ['token_hash'], unique: true }
        }
    },
    ccma_balances: {
        columns: {
            client_id: { type: 'integer', unsigned: true },
            saldo_deudor: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            saldo_acreedor: { type: 'decimal', precision: 18, scale: 2, nullable: true }
        },
        primary: ['client_id'],
        indexes: {}
    },
    ccma_movements: {
        columns: {
            id: { type: 'bigIncrements' },
            client_id: { type: 'integer', unsigned: true },
            period_key: { type: 'string', size: 6 },
            orden: { type: 'integer' },
            impuesto: { type: 'string', size: 200 },
            concepto: { type: 'string', size: 200 },
            subconcepto: { type: 'string', size: 200 },
            descripcion: { type: 'string', size: 500 },
            fecha_movimiento: { type: 'bigInteger' },
            debe: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            haber: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            saldo: { type: 'decimal', precision: 18, scale: 2 }
        },
        primary: ['id'],
        indexes: {
            ccma_movements_list: { columns: ['client_id', 'period_key', 'orden'] }
        }
    },
    client_imports: {
        columns: {
            id: { type: 'increments' },
            public_id: { type: 'string', size: 36 },
            account_id: { type: 'integer', unsigned: true },
            user_id: { type: 'integer', unsigned: true },
            sealed_rows: { type: 'mediumtext' },
            row_count: { type: 'integer' },
            created_at: { type: 'bigInteger' },
            expires_at: { type: 'bigInteger' }
        },
        primary: ['id'],
        indexes: {
            client_imports_public_id_unique: { columns: ['public_id'], unique: true },
            client_imports_expires_at: { columns: ['expires_at'] }
        }
    },
    client_tags: {
        columns: {
            client_id: { type: 'integer', unsigned: true },
            tag_id: { type: 'integer', unsigned: true }
        },
        primary: ['client_id', 'tag_id'],
        indexes: {
            client_tags_tag_id_client_id_index: { columns: ['tag_id', 'client_id'] }
        }
    },
    clients: {
        columns: {
            id: { type: 'increments' },
            public_id: { type: 'string', size: 36 },
            account_id: { type: 'integer', unsigned: true },
            cuit: { type: 'string', size: 11 },
            tipo: { type: 'string', size: 20 },
            nombre: { type: 'string', size: 200, nullable: true },
            apellido: { type: 'string', size: 200, nullable: true },
            razon_social: { type: 'string', size: 255, nullable: true },
            representative_id: { type: 'integer', unsigned: true, nullable: true },
            display_name: { type: 'string', size: 420 },
            sort_name: { type: 'string', size: 255 },
            email: { type: 'string', size: 254, nullable: true },
            telefono: { type: 'string', size: 60, nullable: true },
            clave_arca: { type: 'text', nullable: true },
            monotributista: { type: 'boolean', nullable: true },
            autonomo: { type: 'boolean', nullable: true },
            categoria: { type: 'string', size: 1, nullable: true },
            created_at: { type: 'bigInteger' },
            updated_at: { type: 'bigInteger' },
            data_version: { type: 'bigInteger' },
            key_digest: { type: 'string', size: 64, nullable: true },
            key_stored_at: { type: 'bigInteger', nullable: true }
        },
        primary: ['id'],
        indexes: {
            clients_account_id_cuit_unique: { columns: ['account_id', 'cuit'], unique: true },
            clients_account_id_sort_name_id_index: { columns: ['account_id', 'sort_name', 'id'] },
            clients_key_digest: { columns: ['key_digest'] },
            clients_public_id_unique: { columns: ['public_id'], unique: true },
            clients_representative_id_index: { columns: ['representative_id'] }
        }
    },
    dfe_notifications: {
        columns: {
            id: { type: 'bigIncrements' },
            client_id: { type: 'integer', unsigned: true },
            arca_id: { type: 'string', size: 40, nullable: true },
            tipo: { type: 'string', size: 100, nullable: true },
            asunto: { type: 'string', size: 500 },
            organismo: { type: 'string', size: 200, nullable: true },
            fecha_recepcion: { type: 'bigInteger' },
            fecha_notificacion: { type: 'bigInteger', nullable: true },
            leida_at: { type: 'bigInteger', nullable: true }
        },
        primary: ['id'],
        indexes: {
            dfe_notifications_client_id_arca_id_unique: { columns: ['client_id', 'arca_id'], unique: true },
            dfe_notifications_list: { columns: ['client_id', 'fecha_recepcion', 'id'] }
        }
    },
    fleet_slots: {
        columns: {
            name: { type: 'string', size: 120 },
            slot: { type: 'integer' },
            holder: { type: 'string', size: 100, nullable: true },
            until: { type: 'bigInteger' }
        },
        primary: ['name', 'slot'],
        indexes: {}
    },
    installation: {
        columns: {
            name: { type: 'string', size: 64 },
            value: { type: 'string', size: 255 }
        },
        primary: ['name'],
        indexes: {}
    },
    invitations: {
        columns: {
            id: { type: 'increments' },
            user_id: { type: 'integer', unsigned: true },
            token_hash: { type: 'string', size: 64 },
            created_at: { type: 'bigInteger' },
            expires_at: { type: 'bigInteger' },
            used_at: { type: 'bigInteger', nullable: true }
        },
        primary: ['id'],
        indexes: {
            invitations_token_hash_unique: { columns: ['token_hash'], unique: true },
            invitations_user_id_index: { columns: ['user_id'] }
        }
    },
    invoice_day_counts: {
        columns: {
            client_id: { type: 'integer', unsigned: true },
            kind: { type: 'string', size: 1 },
            fecha: { type: 'string', size: 10 },
            count: { type: 'integer' }
        },
        primary: ['client_id', 'kind', 'fecha'],
        indexes: {}
    },
    invoices: {
        columns: {
            id: { type: 'bigIncrements' },
            client_id: { type: 'integer', unsigned: true },
            kind: { type: 'string', size: 1 },
            fecha: { type: 'string', size: 10 },
            tipo: { type: 'string', size: 8 },
            punto_venta: { type: 'string', size: 8 },
            numero_desde: { type: 'string', size: 20 },
            numero_hasta: { type: 'string', size: 20 },
            issuer_key: { type: 'string', size: 20 },
            codigo_autorizacion: { type: 'string', size: 20, nullable: true },
            counterpart_doc_type: { type: 'string', size: 8, nullable: true },
            counterpart_doc_number: { type: 'string', size: 20, nullable: true },
            counterpart_name: { type: 'string', size: 255, nullable: true },
            imp_neto_gravado: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            imp_neto_no_gravado: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            imp_op_exentas: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            otros_tributos: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            iva: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            tipo_cambio: { type: 'decimal', precision: 18, scale: 6 },
            importe_original: { type: 'decimal', precision: 18, scale: 2 },
            moneda_original: { type: 'string', size: 8 },
            importe: { type: 'decimal', precision: 18, scale: 2 }
        },
        primary: ['id'],
        indexes: {
            // The answers' sums by client, month, kind and type, read from the index alone (019).
            invoices_answers: { columns: ['client_id', 'fecha', 'kind', 'tipo', 'importe', 'iva', 'tipo_cambio'] },
            invoices_list: { columns: ['client_id', 'kind', 'fecha', 'id'] },
            invoices_natural_key: { columns: ['client_id', 'kind', 'issuer_key', 'tipo', 'punto_venta', 'numero_desde'], unique: true }
        }
    },
    monotributo_cap_levels: {
        columns: {
            client_id: { type: 'integer', unsigned: true },
            level: { type: 'integer' },
            previous_level: { type: 'integer' },
            facturado: { type: 'decimal', precision: 18, scale: 2 },
            tope: { type: 'decimal', precision: 18, scale: 2, nullable: true },
            checked_at: { type: 'bigInteger' }
        },
        primary: ['client_id'],
        indexes: {}
    },
    monotributo_tables: {
        columns: {
            vigencia_desde: { type: 'string', size: 10 },
            fuente: { type: 'string', size: 500 },
            tope_a: { type: 'decimal', precision: 18, scale: 2 },
            tope_b: { type: 'decimal', precision: 18, scale: 2 },
            tope_c: { type: 'decimal', precision: 18, scale: 2 },
            tope_d: { type: 'decimal', precision: 18, scale: 2 },
            tope_e: { type: 'decimal', precision: 18, scale: 2 },
            tope_f: { type: 'decimal', precision: 18, scale: 2 },
            tope_g: { type: 'decimal', precision: 18, scale: 2 },
            tope_h: { type: 'decimal', precision: 18, scale: 2 },
            tope_i: { type: 'decimal', precision: 18, scale: 2 },
            tope_j: { type: 'decimal', precision: 18, scale: 2 },
            tope_k: { type: 'decimal', precision: 18, scale: 2 },
            loaded_at: { type: 'bigInteger' }
        },
        primary: ['vigencia_desde'],
        indexes: {}
    },
    oauth_entries: {
        columns: {
            kind: { type: 'string', size: 40 },
            id: { type: 'string', size: 190 },
            payload: { type: 'mediumtext' },
            grant_id: { type: 'string', size: 190, nullable: true },
            user_code: { type: 'string', size: 190, nullable: true },
            uid: { type: 'string', size: 190, nullable: true },
            expires_at: { type: 'bigInteger', nullable: true },
            consumed_at: { type: 'bigInteger', nullable: true },
            account_id: { type: 'string', size: 190, nullable: true }
        },
        primary: ['kind', 'id'],
        indexes: {
            oauth_entries_account: { columns: ['account_id'] },
            oauth_entries_expiry: { columns: ['expires_at'] },
            oauth_entries_grant: { columns: ['grant_id'] },
            oauth_entries_uid: { columns: ['kind', 'uid'] },
            oauth_entries_user_code: { columns: ['kind', 'user_code'] }
        }
    },
    rate_limits: {
        columns: {
            user_id: { type: 'integer', unsigned: true },
            minute_start: { type: 'bigInteger' },
            minute_count: { type: 'integer' },
            month_start: { type: 'bigInteger' },
            month_count: { type: 'integer' }
        },
        primary: ['user_id'],
        indexes: {}
    },
    sct_debts: {
        columns: {
            id: { type: 'bigIncrements' },
            client_id: { type: 'integer', unsigned: true },
            position: { type: 'integer' },
            establecimiento: { type: 'string', size: 100 },
            impuesto: { type: 'string', size: 200 },
            concepto: { type: 'string', size: 200 },
            subconcepto: { type: 'string', size: 200 },
            periodo: { type: 'string', size: 6 },
            ant_cuota: { type: 'string', size: 20 },
            vencimiento: { type: 'bigInteger', nullable: true },
            saldo: { type: 'decimal', precision: 18, scale: 2 },
            int_resarcitorios: { type: 'decimal', precision: 18, scale: 2 },
            int_punitorios: { type: 'decimal', precision: 18, scale: 2 }
        },
        primary: ['id'],
        indexes: {
            sct_debts_client_id_position_index: { columns: ['client_id', 'position'] }
        }
    },
    sct_due_dates: {
        columns: {
            id: { type: 'bigIncrements' },
            client_id: { type: 'integer', unsigned: true },
            position: { type: 'integer' },
            impuesto: { type: 'string', size: 200 },
            concepto: { type: 'string', size: 200 },
            subconcepto: { type: 'string', size: 200 },
            periodo: { type: 'string', size: 6 },
            ant_cuota: { type: 'string', size: 20 },
            vencimiento: { type: 'bigInteger' },
            detalle: { type: 'string', size: 500 }
        },
        primary: ['id'],
        indexes: {
            sct_due_dates_client_id_position_index: { columns: ['client_id', 'position'] }
        }
    },
    sct_returns: {
        columns: {
            id: { type: 'bigIncrements' },
            client_id: { type: 'integer', unsigned: true },
            position: { type: 'integer' },
            establecimiento: { type: 'string', size: 100 },
            impuesto: { type: 'string', size: 200 },
            concepto: { type: 'string', size: 200 },
            subconcepto: { type: 'string', size: 200 },
            periodo: { type: 'string', size: 6 },
            ant_cuota: { type: 'string', size: 20 },
            vencimiento: { type: 'bigInteger' }
        },
        primary: ['id'],
        indexes: {
            sct_returns_client_id_position_index: { columns: ['client_id', 'position'] }
        }
    },
    sync_changes: {
        columns: {
            client_id: { type: 'integer', unsigned: true },
            system: { type: 'string', size: 24 },
            new_records: { type: 'integer' },
            changed_records: { type: 'integer' },
            removed_records: { type: 'integer' },
            synced_at: { type: 'bigInteger' }
        },
        primary: ['client_id', 'system'],
        indexes: {}
    },
    sync_jobs: {
        columns: {
            id: { type: 'bigIncrements' },
            client_id: { type: 'integer', unsigned: true },
            reason: { type: 'string', size: 16 },
            status: { type: 'string', size: 16 },
            run_after: { type: 'bigInteger' },
            lease_owner: { type: 'string', size: 64, nullable: true },
            lease_expires_at: { type: 'bigInteger', nullable: true },
            attempts: { type: 'integer' },
            last_error: { type: 'text', nullable: true },
            created_at: { type: 'bigInteger' },
            finished_at: { type: 'bigInteger', nullable: true },
            active_client_id: { type: 'integer', unsigned: true, nullable: true },
            started_at: { type: 'bigInteger', nullable: true },
            active_key: { type: 'string', size: 64, nullable: true }
        },
        primary: ['id'],
        indexes: {
            sync_jobs_client_created: { columns: ['client_id', 'created_at'] },
            sync_jobs_client_id_status_index: { columns: ['client_id', 'status'] },
            sync_jobs_leases: { columns: ['status', 'lease_expires_at'] },
            sync_jobs_one_running_per_client: { columns: ['active_client_id'], unique: true },
            sync_jobs_one_running_per_key: { columns: ['active_key'], unique: true },
            sync_jobs_started: { columns: ['started_at', 'client_id'] },
            sync_jobs_status_run_after_index: { columns: ['status', 'run_after'] }
        }
    },
    sync_key_failures: {
        columns: {
            client_id: { type: 'integer', unsigned: true },
            key_fingerprint: { type: 'string', size: 64 },
            kind: { type: 'string', size: 24 },
            failed_at: { type: 'bigInteger' }
        },
        primary: ['client_id'],
        indexes: {}
    },
    sync_key_holds: {
        columns: {
            key_id: { type: 'string', size: 64 },
            owner: { type: 'string', size: 64 },
            expires_at: { type: 'bigInteger' }
        },
        primary: ['key_id'],
        indexes: {
            sync_key_holds_owner: { columns: ['owner'] }
        }
    },
    sync_login_attempts: {
        columns: {
            id: { type: 'bigIncrements' },
            key_cuit: { type: 'string', size: 11 },
            key_id: { type: 'string', size: 64 },
            account_id: { type: 'integer' },
            day: { type: 'string', size: 10 },
            proven: { type: 'boolean' },
            relogin: { type: 'boolean' },
            started_at: { type: 'bigInteger' },
            posted_at: { type: 'bigInteger', nullable: true },
            outcome: { type: 'string', size: 24, nullable: true },
            ends_day: { type: 'boolean' }
        },
        primary: ['id'],
        indexes: {
            sync_login_attempts_cuit_day: { columns: ['key_cuit', 'day'] },
            sync_login_attempts_cuit_started: { columns: ['key_cuit', 'started_at'] },
            sync_login_attempts_day: { columns: ['day'] },
            sync_login_attempts_key_day: { columns: ['key_id', 'day'] }
        }
    },
    sync_states: {
        columns: {
            client_id: { type: 'integer', unsigned: true },
            system: { type: 'string', size: 24 },
            synced_at: { type: 'bigInteger', nullable: true },
            last_attempt_at: { type: 'bigInteger', nullable: true },
            last_error: { type: 'text', nullable: true },
            failing_since: { type: 'bigInteger', nullable: true },
            last_state: { type: 'string', size: 24, nullable: true }
        },
        primary: ['client_id', 'system'],
        indexes: {}
    },
    tags: {
        columns: {
            id: { type: 'increments' },
            account_id: { type: 'integer', unsigned: true },
            name: { type: 'string', size: 100 },
            sort_name: { type: 'string', size: 255 },
            color: { type: 'string', size: 16 }
        },
        primary: ['id'],
        indexes: {
            tags_account_id_sort_name_unique: { columns: ['account_id', 'sort_name'], unique: true }
        }
    },
    throttles: {
        columns: {
            subject: { type: 'string', size: 190 },
            window_start: { type: 'bigInteger' },
            count: { type: 'integer' }
        },
        primary: ['subject'],
        indexes: {}
    },
    tokens: {
        columns: {
            id: { type: 'increments' },
            user_id: { type: 'integer', unsigned: true },
            name: { type: 'string', size: 200, nullable: true },
            token_hash: { type: 'string', size: 64 },
            hint: { type: 'string', size: 16 },
            created_at: { type: 'bigInteger' },
            revoked_at: { type: 'bigInteger', nullable: true },
            last_used_at: { type: 'bigInteger', nullable: true }
        },
        primary: ['id'],
        indexes: {
            tokens_token_hash_unique: { columns: ['token_hash'], unique: true },
            tokens_user_id_index: { columns: ['user_id'] }
        }
    },
    user_clients: {
        columns: {
            user_id: { type: 'integer', unsigned: true },
            client_id: { type: 'integer', unsigned: true }
        },
        primary: ['user_id', 'client_id'],
        indexes: {
            user_clients_client_id_index: { columns: ['client_id'] }
        }
    },
    users: {
        columns: {
            id: { type: 'increments' },
            account_id: { type: 'integer', unsigned: true },
            email: { type: 'string', size: 254 },
            role: { type: 'string', size: 16 },
            password_hash: { type: 'string', size: 255, nullable: true },
            created_at: { type: 'bigInteger' },
            // The e-mail of a user with a password (null while its invitation is pending):
            // unique, where `email` alone is not (migration 027).
            signin_email: { type: 'string', size: 254, nullable: true }
        },
        primary: ['id'],
        indexes: {
            users_account_id_index: { columns: ['account_id'] },
            users_email_index: { columns: ['email'] },
            users_account_email_unique: { columns: ['account_id', 'email'], unique: true },
            users_signin_email_unique: { columns: ['signin_email'], unique: true }
        }
    },
    webhook_deliveries: {
        columns: {
            id: { type: 'bigIncrements' },
            event_id: { type: 'bigInteger', unsigned: true },
            endpoint_id: { type: 'integer', unsigned: true },
            status: { type: 'string', size: 12 },
            attempts: { type: 'integer' },
            next_attempt_at: { type: 'bigInteger' },
            last_attempt_at: { type: 'bigInteger', nullable: true },
            last_status: { type: 'integer', nullable: true },
            last_error: { type: 'string', size: 500, nullable: true },
            delivered_at: { type: 'bigInteger', nullable: true },
            lease_owner: { type: 'string', size: 100, nullable: true },
            lease_expires_at: { type: 'bigInteger', nullable: true },
            created_at: { type: 'bigInteger' }
        },
        primary: ['id'],
        indexes: {
            webhook_deliveries_due: { columns: ['status', 'next_attempt_at'] },
            webhook_deliveries_endpoint: { columns: ['endpoint_id', 'id'] },
            webhook_deliveries_once: { columns: ['event_id', 'endpoint_id'], unique: true }
        }
    },
    webhook_endpoints: {
        columns: {
            id: { type: 'increments' },
            account_id: { type: 'integer', unsigned: true },
            url: { type: 'string', size: 2048 },
            events: { type: 'string', size: 500 },
            sealed_secret: { type: 'text' },
            created_at: { type: 'bigInteger' },
            disabled_at: { type: 'bigInteger', nullable: true },
            consecutive_failures: { type: 'integer' },
            open_until: { type: 'bigInteger', nullable: true },
            last_claimed_at: { type: 'bigInteger', nullable: true }
        },
        primary: ['id'],
        indexes: {
            webhook_endpoints_account: { columns: ['account_id'] }
        }
    },
    webhook_events: {
        columns: {
            id: { type: 'bigIncrements' },
            public_id: { type: 'string', size: 48 },
            account_id: { type: 'integer', unsigned: true },
            client_id: { type: 'integer', unsigned: true, nullable: true },
            cuit: { type: 'string', size: 11, nullable: true },
            type: { type: 'string', size: 40 },
            sync_system: { type: 'string', size: 24, nullable: true },
            previous_error: { type: 'text', nullable: true },
            error: { type: 'text', nullable: true },
            data: { type: 'mediumtext', nullable: true },
            created_at: { type: 'bigInteger' },
            fanned_out: { type: 'boolean' }
        },
        primary: ['id'],
        indexes: {
            webhook_events_client: { columns: ['client_id', 'type', 'id'] },
            webhook_events_created: { columns: ['created_at', 'id'] },
            webhook_events_fan_out: { columns: ['fanned_out', 'id'] },
            webhook_events_public_id_unique: { columns: ['public_id'], unique: true }
        }
    }
} satisfies Record<string, TableSpec>;

// The sizes of a table's text columns (schema.ts is their one source), by column name.
export const sizesOf = <K extends string>(table: TableSpec, columns: readonly K[]): Record<K, number> => Object.fromEntries(columns.map((column) => {

    const size = table.columns[column]?.size;
    if (size === undefined) {
        throw new Error(`schema: no size for ${column}`);
    }

    return [column, size];
})) as Record<K, number>;
