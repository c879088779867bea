import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mysqlServerAdmin } from '../test/support/mysql-server.js';

// A fresh database for one bench run: a new schema beside DATABASE_URL's on MySQL/MariaDB
// (dropped by drop()), DATABASE_URL itself when it names a SQLite file, a temporary SQLite file
// otherwise. `label` names the schema or the folder (arcasync_bench_<label>_…).
export const benchDatabase = async (label: string): Promise<{ url: string; name: string; drop(): Promise<void> }> => {

    const given = process.env.DATABASE_URL;
    if (given && /^(mysql|mariadb):/.test(given)) {
        const base = new URL(given);
        const name = `arcasync_bench_${label}_${randomBytes(4).toString('hex')}`;
        const admin = mysqlServerAdmin(given);
        await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        base.pathname = `/${name}`;
        return {
            url: base.toString(),
            name: 'MariaDB/MySQL',
            async drop() {

                await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
                await admin.destroy();
            }
        };
    }

    if (given && given.startsWith('sqlite:')) {
        return { url: given, name: 'SQLite', drop: async () => undefined };
    }

    const dir = mkdtempSync(join(tmpdir(), `arcasync-bench-${label}-`));
    return { url: `sqlite:${join(dir, 'bench.sqlite')}`, name: 'SQLite', drop: async () => rmSync(dir, { recursive: true, force: true }) };
};
