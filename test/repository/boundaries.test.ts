import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';

// The rooms of the code and who may enter which, as docs/architecture.md draws them
// (dependency direction: cli -> app -> {servers, adapters} -> core), checked on every import,
// static, dynamic or type-only:
//   - core imports nothing outside itself but Node's modules and its declared library (joi,
//     in core/contract alone); inside core, domain imports only domain, contract and ports
//     only domain (and themselves), and no file name is both a domain and a contract file;
//   - servers and cli reach the adapters only through app/ (the composition root);
//   - app never imports cli, and servers never import app or cli (app builds the servers);
//   - adapters never reach up into app, servers or cli;
//   - no module imports itself back through a circle.

const internals = {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    rooms: ['core', 'adapters', 'servers', 'app', 'cli'],
    coreLibraries: ['joi'],

    files(dir: string): string[] {

        return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {

            const path = join(dir, entry.name);
            return entry.isDirectory() ? internals.files(path) : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
        });
    },

    roomOf: (file: string): string => file.split('/')[0]!,

    // core's own rooms and what each may import of core (use-cases: all of it).
    coreRooms: {
        domain: ['domain'],
        contract: ['domain', 'contract'],
        ports: ['domain', 'ports']
    } as Record<string, string[]>,

    coreRoomOf: (file: string): string | null => (file.startsWith('core/') ? file.split('/')[1]! : null)
};

interface Import {
    from: string;          // the importing file, relative to the root
    specifier: string;
    target: string | null; // the imported file, relative to the root, for a relative import
}

const imports = (): Import[] => {

    const found: Import[] = [];
    for (const room of internals.rooms) {
        for (const path of internals.files(join(internals.root, room))) {
            const from = relative(internals.root, path);
            const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
            for (const { fileName: specifier } of importedFiles) {
                const target = specifier.startsWith('.') ? relative(internals.root, resolve(dirname(path), specifier.replace(/\.js$/, '.ts'))) : null;
                found.push({ from, specifier, target });
            }
        }
    }

    return found;
};

const circles = (edges: Import[]): string[][] => {

    const graph = new Map<string, string[]>();
    for (const edge of edges) {
        if (edge.target) {
            graph.set(edge.from, [...graph.get(edge.from) ?? [], edge.target]);
        }
    }

    // Tarjan's strongly connected components: any of more than one module is a circle.
    let counter = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const found: string[][] = [];
    const visit = (node: string): void => {

        index.set(node, counter);
        low.set(node, counter++);
        stack.push(node);
        for (const next of graph.get(node) ?? []) {
            if (!index.has(next)) {
                visit(next);
                low.set(node, Math.min(low.get(node)!, low.get(next)!));
            }
            else if (stack.includes(next)) {
                low.set(node, Math.min(low.get(node)!, index.get(next)!));
            }
        }

        if (low.get(node) === index.get(node)) {
            const component: string[] = [];
            let member: string;
            do {
                member = stack.pop()!;
                component.push(member);
            } while (member !== node);

            if (component.length > 1 || graph.get(node)?.includes(node)) {
                found.push(component.sort());
            }
        }
    };

    for (const node of graph.keys()) {
        if (!index.has(node)) {
            visit(node);
        }
    }

    return found;
};

describe('module boundaries', () => {

    const all = imports();

    it('finds the imports of every room', () => {

        expect(new Set(all.map((edge) => internals.roomOf(edge.from)))).to.deep.equal(new Set(internals.rooms));
        expect(all.filter((edge) => edge.from === 'app/compose.ts').map((edge) => edge.specifier)).to.include('../adapters/knex/index.js');
    });

    it('inside core, domain imports only domain, contract and ports only domain, and joi only contract', () => {

        const wrong = all.filter((edge) => {

            const from = internals.coreRoomOf(edge.from);
            const allowed = from ? internals.coreRooms[from] : undefined;
            if (!allowed) {
                return false;
            }

            return edge.target ? !allowed.includes(internals.coreRoomOf(edge.target) ?? '') : edge.specifier === 'joi' && from !== 'contract';
        })
            .map((edge) => `${edge.from} -> ${edge.specifier}`);
        expect(wrong).to.deep.equal([]);
    });

    it('gives each name one home: no file of core/domain shares its name with one of core/contract', () => {

        const names = (room: string) => internals.files(join(internals.root, 'core', room)).map((path) => relative(join(internals.root, 'core', room), path));
        const contract = new Set(names('contract'));
        expect(names('domain').filter((name) => contract.has(name))).to.deep.equal([]);
    });

    it('core imports only itself, node: modules and joi', () => {

        const outside = all.filter((edge) => internals.roomOf(edge.from) === 'core')
            .filter(
                (edge) => (edge.target ? internals.roomOf(edge.target) !== 'core' : !edge.specifier.startsWith('node:') && !internals.coreLibraries.includes(
                    edge.specifier
                ))
            )
            .map((edge) => `${edge.from} -> ${edge.specifier}`);
        expect(outside).to.deep.equal([]);
    });

    it('servers and cli reach the adapters only through app/', () => {

        const leaks = all.filter(
            (edge) => ['servers', 'cli'].includes(internals.roomOf(edge.from)) && edge.target && internals.roomOf(edge.target) === 'adapters'
        )
            .map((edge) => `${edge.from} -> ${edge.specifier}`);
        expect(leaks).to.deep.equal([]);
    });

    it('servers never import app or cli, and app never imports cli', () => {

        const up = all.filter((edge) => edge.target && (
            (internals.roomOf(edge.from) === 'servers' && ['app', 'cli'].includes(internals.roomOf(edge.target))) ||
            (internals.roomOf(edge.from) === 'app' && internals.roomOf(edge.target) === 'cli')
        ))
            .map((edge) => `${edge.from} -> ${edge.specifier}`);
        expect(up).to.deep.equal([]);
    });

    it('adapters never reach up into app, servers or cli', () => {

        const up = all.filter(
            (edge) => internals.roomOf(edge.from) === 'adapters' && edge.target && ['app', 'servers', 'cli'].includes(internals.roomOf(edge.target))
        )
            .map((edge) => `${edge.from} -> ${edge.specifier}`);
        expect(up).to.deep.equal([]);
    });

    it('has no import circle anywhere, type-only imports included', () => {

        expect(circles(all)).to.deep.equal([]);
    });

    it('reaches the database only through the ports: the app\'s connection is named by tests and benches alone', () => {

        const naming = internals.rooms.flatMap((room) => internals.files(join(internals.root, room)))
            .filter((path) => readFileSync(path, 'utf8').includes('testOnlyDatabaseOf'))
            .map((path) => relative(internals.root, path));
        expect(naming).to.deep.equal(['app/compose.ts']);
    });
});
