import { strFromU8, unzipSync, zipSync } from 'fflate';

// Mis Comprobantes' CSV comes zipped: fflate reads and writes it (the simulated authority
// writes the same archive the real one sends).

export interface ZipEntry {
    name: string;
    data: Buffer;
}

export const writeZip = (entries: readonly ZipEntry[]): Buffer => {

    return Buffer.from(zipSync(Object.fromEntries(entries.map((entry) => [entry.name, new Uint8Array(entry.data)]))));
};

// Throws on an archive that cannot be read.
export const readZip = (archive: Buffer): ZipEntry[] => {

    const files = unzipSync(new Uint8Array(archive));
    return Object.entries(files).map(([name, data]) => ({ name, data: Buffer.from(data) }));
};

export const zipText = (entry: ZipEntry): string => strFromU8(entry.data);
