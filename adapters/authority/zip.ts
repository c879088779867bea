import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

// The smallest ZIP reader and writer the exports need (Mis Comprobantes' CSV comes zipped):
// stored and deflated entries, no ZIP64, no encryption.

export interface ZipEntry {
    name: string;
    data: Buffer;
}

const internals = {
    localSignature: 0x04034b50,
    centralSignature: 0x02014b50,
    endSignature: 0x06054b50
};

export const writeZip = (entries: readonly ZipEntry[]): Buffer => {

    const locals: Buffer[] = [];
    const centrals: Buffer[] = [];
    let offset = 0;
    for (const entry of entries) {
        const name = Buffer.from(entry.name, 'utf8');
        const compressed = deflateRawSync(entry.data);
        const crc = crc32(entry.data);
        const local = Buffer.alloc(30);
        local.writeUInt32LE(internals.localSignature, 0);
        local.writeUInt16LE(20, 4);
        local.writeUInt16LE(0x0800, 6);               // UTF-8 names
        local.writeUInt16LE(8, 8);                    // deflate
        local.writeUInt32LE(crc, 14);
        local.writeUInt32LE(compressed.length, 18);
        local.writeUInt32LE(entry.data.length, 22);
        local.writeUInt16LE(name.length, 26);
        const central = Buffer.alloc(46);
        central.writeUInt32LE(internals.centralSignature, 0);
        central.writeUInt16LE(20, 4);
        central.writeUInt16LE(20, 6);
        central.writeUInt16LE(0x0800, 8);
        central.writeUInt16LE(8, 10);
        central.writeUInt32LE(crc, 16);
        central.writeUInt32LE(compressed.length, 20);
        central.writeUInt32LE(entry.data.length, 24);
        central.writeUInt16LE(name.length, 28);
        central.writeUInt32LE(offset, 42);
        locals.push(local, name, compressed);
        centrals.push(central, name);
        offset += local.length + name.length + compressed.length;
    }

    const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(internals.endSignature, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(centralSize, 12);
    end.writeUInt32LE(offset, 16);
    return Buffer.concat([...locals, ...centrals, end]);
};

// Throws on anything that is not a well-formed archive.
export const readZip = (archive: Buffer): ZipEntry[] => {

    let end = -1;
    for (let i = archive.length - 22; i >= Math.max(0, archive.length - 22 - 0xffff); --i) {
        if (archive.readUInt32LE(i) === internals.endSignature) {
            end = i;
            break;
        }
    }

    if (end < 0) {
        throw new Error('not a zip archive');
    }

    const count = archive.readUInt16LE(end + 10);
    let pointer = archive.readUInt32LE(end + 16);
    const entries: ZipEntry[] = [];
    for (let i = 0; i < count; ++i) {
        if (archive.readUInt32LE(pointer) !== internals.centralSignature) {
            throw new Error('corrupt zip directory');
        }

        const method = archive.readUInt16LE(pointer + 10);
        const compressedSize = archive.readUInt32LE(pointer + 20);
        const nameLength = archive.readUInt16LE(pointer + 28);
        const extraLength = archive.readUInt16LE(pointer + 30);
        const commentLength = archive.readUInt16LE(pointer + 32);
        const localOffset = archive.readUInt32LE(pointer + 42);
        const name = archive.subarray(pointer + 46, pointer + 46 + nameLength).toString('utf8');
        if (archive.readUInt32LE(localOffset) !== internals.localSignature) {
            throw new Error('corrupt zip entry');
        }

        const dataStart = localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
        const raw = archive.subarray(dataStart, dataStart + compressedSize);
        if (method !== 0 && method !== 8) {
            throw new Error(`unsupported zip method ${method}`);
        }

        entries.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
        pointer += 46 + nameLength + extraLength + commentLength;
    }

    return entries;
};
