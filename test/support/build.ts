import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// dist/ as `npm run build` leaves it: the child-process tests run the built binary. Apart from
// cli.ts (which loads the whole CLI) so that the run's global setup can rebuild a stale dist/
// once, in the main process, before any worker process of a parallel run needs it.

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    built: false,

    newest(dir: string): number {

        let newest = 0;
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
            const path = join(dir, entry.name);
            newest = Math.max(newest, entry.isDirectory() ? internals.newest(path) : entry.name.endsWith('.ts') ? statSync(path).mtimeMs : 0);
        }

        return newest;
    }
};

// The built binary's path; rebuilt once per process when a source is newer.
export const builtCli = (): string => {

    const main = join(internals.root, 'dist/cli/main.js');
    if (!internals.built) {
        const built = (() => {

            try {
                return statSync(main).mtimeMs;
            }
            catch {
                return 0;
            }
        })();
        if (built < Math.max(...['app', 'cli', 'core', 'adapters', 'servers'].map((dir) => internals.newest(join(internals.root, dir))))) {
            execFileSync(
                process.execPath,
                [join(internals.root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
                { cwd: internals.root, stdio: 'inherit' }
            );
        }

        internals.built = true;
    }

    return main;
};
