import { expect } from 'chai';
import { generateToken, hashToken, tokenHint, tokenUseDue, tokenUseInterval } from '../../core/domain/token.js';
import { findTokenUser } from '../../core/use-cases/find-token-user.js';
import type { TokenRepository } from '../../core/ports/index.js';
import { memoryPorts } from '../support/memory-ports.js';

// An API token's "last used" (issue 40, the panel's token list and `token list`): recorded when
// a request authenticates with it, at most once per token every 5 minutes, without the request
// waiting for the write or failing with it (core/domain/token.ts, find-token-user.ts). What the
// panel and the CLI show of it: panel-estudio.test.ts, cli-token-use.test.ts.

const internals = {
    async withToken(memory: ReturnType<typeof memoryPorts>): Promise<{ token: string; id: number }> {

        const { userId } = memory.account();
        const token = generateToken();
        const id = await memory.ports.tokens.create({ userId, name: 'ERP', tokenHash: hashToken(token), hint: tokenHint(token), createdAt: 0 });
        return { token, id };
    },

    // The tokens port with its writes of a use counted, and answered by `write`.
    counting(tokens: TokenRepository, write: (id: number, at: number) => Promise<void>): { tokens: TokenRepository; writes: number[] } {

        const writes: number[] = [];
        return {
            writes,
            tokens: {
                ...tokens,
                recordUse: (id, at) => {

                    writes.push(at);
                    return write(id, at);
                }
            }
        };
    }
};

describe('API tokens: the throttled "last used" (core, in memory)', () => {

    it('is due for a token never used, and again 5 minutes after the last recorded use, not before', () => {

        const at = Date.parse('2026-03-15T12:00:00Z');
        expect(tokenUseInterval).to.equal(5 * 60_000);
        expect(tokenUseDue(null, at)).to.equal(true);
        expect(tokenUseDue(at, at)).to.equal(false);
        expect(tokenUseDue(at, at + tokenUseInterval - 1)).to.equal(false);
        expect(tokenUseDue(at, at + tokenUseInterval)).to.equal(true);
        // Another process's clock ahead: no write until this one's catches up.
        expect(tokenUseDue(at + 60_000, at)).to.equal(false);
    });

    it('records the first request with a token, then none for 5 minutes of requests, then the next one', async () => {

        const memory = memoryPorts({ now: '2026-03-15T12:00:00Z' });
        const { token, id } = await internals.withToken(memory);
        const counted = internals.counting(memory.ports.tokens, memory.ports.tokens.recordUse);
        const ports = { ...memory.ports, tokens: counted.tokens };
        const lastUsed = () => memory.world.tokens.find((row) => row.id === id)!.lastUsedAt;
        expect(lastUsed()).to.equal(null);

        await findTokenUser(ports, token);
        expect(lastUsed()).to.equal(Date.parse('2026-03-15T12:00:00Z'));

        for (let i = 0; i < 10; ++i) {
            memory.clock.advance(29_000);
            await findTokenUser(ports, token);
        }

        expect(counted.writes).to.have.length(1);
        expect(lastUsed()).to.equal(Date.parse('2026-03-15T12:00:00Z'));

        memory.clock.set('2026-03-15T12:05:00Z');
        await findTokenUser(ports, token);
        expect(counted.writes).to.have.length(2);
        expect(lastUsed()).to.equal(Date.parse('2026-03-15T12:05:00Z'));
    });

    it('answers the request without waiting for the write, and never fails it when the write fails', async () => {

        const memory = memoryPorts();
        const { token } = await internals.withToken(memory);

        const hanging = internals.counting(memory.ports.tokens, () => new Promise<void>(() => undefined));
        const principal = await findTokenUser({ ...memory.ports, tokens: hanging.tokens }, token);
        expect(principal.userId).to.be.a('number');
        expect(hanging.writes).to.have.length(1);

        const failing = internals.counting(memory.ports.tokens, () => Promise.reject(new Error('la base no responde')));
        expect((await findTokenUser({ ...memory.ports, tokens: failing.tokens }, token)).userId).to.equal(principal.userId);
        expect(failing.writes).to.have.length(1);
        // The rejection was handled: a turn of the event loop later nothing is left unhandled.
        await new Promise((resolve) => setImmediate(resolve));
    });
});
