import { expect } from 'chai';
import { memoryReadCache } from '../../adapters/memory/read-cache.js';
import { loadConfig } from '../../app/config.js';
import { cachedRead } from '../../core/use-cases/cached-read.js';

// The in-memory read cache's own rules: an answer kept from its second request on, only for
// the version it was read at, never replaced by an older one, frozen, and bounded by its byte
// budget.

// What cachedRead does on a miss, for a key asked for the second time: the answer is kept.
const keep = <T>(cache: ReturnType<typeof memoryReadCache>, key: string, version: number, value: T): T => {

    cache.get(key, version);
    cache.get(key, version);
    return cache.set(key, version, value);
};

describe('memoryReadCache', () => {

    it('keeps an answer from the second time it is asked for, not the first', () => {

        const cache = memoryReadCache({ maxBytes: 1_000_000 });
        expect(cache.get('k', 1)).to.equal(undefined);
        const once = cache.set('k', 1, { n: 1 });
        expect(Object.isFrozen(once)).to.equal(false);
        expect(cache.get('k', 1)).to.equal(undefined);
        const twice = cache.set('k', 1, { n: 2 });
        expect(cache.get('k', 1)).to.equal(twice);

        // Asked for once at each of two versions: asked twice, kept.
        cache.get('v', 1);
        cache.set('v', 1, { n: 1 });
        cache.get('v', 2);
        expect(cache.get('v', 2)).to.equal(undefined);
        const second = cache.set('v', 2, { n: 2 });
        expect(cache.get('v', 2)).to.equal(second);
    });

    it('forgets the oldest of the keys asked for once, past 50,000, and keeps a key asked again among the newest', () => {

        const cache = memoryReadCache({ maxBytes: 1_000_000 });
        cache.get('oldest', 1);
        cache.get('again', 1);
        for (let i = 0; i < 49_999; i++) {
            cache.get(`k${i}`, 1);
            if (i === 25_000) {
                cache.get('again', 1);
            }
        }

        // 'oldest' was pushed out: asked for a second time, it counts as the first.
        cache.get('oldest', 1);
        cache.set('oldest', 1, { n: 1 });
        expect(cache.get('oldest', 1)).to.equal(undefined);
        // 'again' moved up when asked the second time, so it is still known as asked twice.
        const kept = cache.set('again', 1, { n: 2 });
        expect(cache.get('again', 1)).to.equal(kept);
    });

    it('answers only a request that reads the same data version', () => {

        const cache = memoryReadCache({ maxBytes: 1_000_000 });
        const value = { data: [1, 2, 3] };
        keep(cache, 'k', 4, value);
        expect(cache.get('k', 4)).to.equal(value);
        expect(cache.get('k', 5)).to.equal(undefined);
        expect(cache.get('other', 4)).to.equal(undefined);
    });

    it('keeps a newer answer when a slower request stores one read at an older version', () => {

        const cache = memoryReadCache({ maxBytes: 1_000_000 });
        keep(cache, 'k', 7, { n: 'new' });
        keep(cache, 'k', 6, { n: 'old' });
        expect(cache.get('k', 7)).to.deep.equal({ n: 'new' });
        expect(cache.get('k', 6)).to.equal(undefined);
    });

    it('freezes what it keeps, nested objects included, since requests share it', () => {

        const cache = memoryReadCache({ maxBytes: 1_000_000 });
        const value = keep(cache, 'k', 1, { data: [{ nombre: 'Ana' }], pagination: { total: 1 } });
        expect(Object.isFrozen(value)).to.equal(true);
        expect(Object.isFrozen(value.data[0])).to.equal(true);
        expect(Object.isFrozen(value.pagination)).to.equal(true);
    });

    it('drops the least recently used answers past its byte budget, and never keeps one too big', () => {

        // About 4 bytes per JSON character: 1,000 characters take about 4,000 bytes.
        const cache = memoryReadCache({ maxBytes: 40_000 });
        const answer = (i: number) => ({ i, text: 'x'.repeat(980) });
        for (let i = 0; i < 9; i++) {
            keep(cache, `k${i}`, 1, answer(i));
        }

        expect(cache.get('k0', 1)).to.deep.equal(answer(0));           // read: now the most recent
        keep(cache, 'k9', 1, answer(9));
        keep(cache, 'k10', 1, answer(10));
        expect(cache.get('k0', 1)).to.deep.equal(answer(0));
        expect(cache.get('k1', 1)).to.equal(undefined);                  // least recently used
        expect(cache.get('k10', 1)).to.deep.equal(answer(10));

        keep(cache, 'huge', 1, { text: 'x'.repeat(5_000) });               // over a tenth of the budget
        expect(cache.get('huge', 1)).to.equal(undefined);
    });

    it('keeps nothing with a budget of 0, and still hands the value back', () => {

        const cache = memoryReadCache({ maxBytes: 0 });
        const value = { a: 1 };
        expect(keep(cache, 'k', 1, value)).to.equal(value);
        expect(cache.get('k', 1)).to.equal(undefined);
        expect(Object.isFrozen(value)).to.equal(false);
    });

    it('cachedRead reads the data twice per version, then answers from memory', async () => {

        const cache = memoryReadCache({ maxBytes: 1_000_000 });
        let reads = 0;
        const read = async () => ({ reads: ++reads });
        expect(await cachedRead(cache, 'k', 1, read)).to.deep.equal({ reads: 1 });
        expect(await cachedRead(cache, 'k', 1, read)).to.deep.equal({ reads: 2 });
        expect(await cachedRead(cache, 'k', 1, read)).to.deep.equal({ reads: 2 });
        expect(await cachedRead(cache, 'k', 2, read)).to.deep.equal({ reads: 3 });
        expect(await cachedRead(cache, 'k', 2, read)).to.deep.equal({ reads: 3 });
    });

    it('takes its budget from READ_CACHE_MB: 32 MB unless set, 0 to turn it off, a clear error otherwise', () => {

        expect(loadConfig({}).readCacheBytes).to.equal(32 * 1024 * 1024);
        expect(loadConfig({ READ_CACHE_MB: '8' }).readCacheBytes).to.equal(8 * 1024 * 1024);
        expect(loadConfig({ READ_CACHE_MB: '0' }).readCacheBytes).to.equal(0);
        expect(() => loadConfig({ READ_CACHE_MB: '-1' })).to.throw('READ_CACHE_MB debe ser un entero mayor o igual a 0');
        expect(() => loadConfig({ READ_CACHE_MB: 'mucho' })).to.throw('READ_CACHE_MB debe ser un entero mayor o igual a 0');
    });
});
