import { Unzip, UnzipInflate, strFromU8, zipSync } from 'fflate';

// Mis Comprobantes' CSV comes zipped: fflate reads and writes it (the simulated authority
// writes the same archive the real one sends).

export interface ZipEntry {
    name: string;
    data: Buffer;
}

export const writeZip = (entries: readonly ZipEntry[]): Buffer => {

    return Buffer.from(zipSync(Object.fromEntries(entries.map((entry) => [entry.name, new Uint8Array(entry.data)]))));
};

// What one archive may hold: an export of a year of invoices is a few MB of CSV; a small
// archive that inflates to hundreds of MB (took a sync to 2.8 GB) is refused as it inflates.
const zipLimits = { entryBytes: 64 * 1024 * 1024, entries: 16 };

export class ZipTooLarge extends Error {

    constructor(readonly entry: string) {

        super(`ZIP: ${entry} supera el tamaño admitido`);
        this.name = 'ZipTooLarge';
    }
}

// Throws on an archive that cannot be read, and ZipTooLarge past `limits`: entries are
// inflated chunk by chunk and counted, never held whole before being checked.
export const readZip = (archive: Buffer, limits = zipLimits): ZipEntry[] => {

    const entries: ZipEntry[] = [];
    let failure: Error | null = null;
    const unzip = new Unzip((file) => {

        if (failure) {
            return;
        }

        if (entries.length >= limits.entries || (file.originalSize ?? 0) > limits.entryBytes) {
            failure = new ZipTooLarge(file.name);
            return;
        }

        const chunks: Uint8Array[] = [];
        let size = 0;
        file.ondata = (err, chunk, final) => {

            if (failure) {
                return;
            }

            if (err) {
                failure = err;
                return;
            }

            size += chunk.length;
            if (size > limits.entryBytes) {
                failure = new ZipTooLarge(file.name);
                file.terminate();
                return;
            }

            chunks.push(chunk);
            if (final) {
                entries.push({ name: file.name, data: Buffer.concat(chunks) });
            }
        };
        file.start();
    });
    unzip.register(UnzipInflate);
    unzip.push(new Uint8Array(archive), true);
    if (failure) {
        throw failure;
    }

    return entries;
};

export const zipText = (entry: ZipEntry): string => strFromU8(entry.data);
