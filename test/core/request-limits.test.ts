import { expect } from 'chai';
import { messages } from '../../core/domain/messages.js';
import { chargeRequest } from '../../core/use-cases/charge-request.js';
import { memoryPorts, refusalOf } from '../support/memory-ports.js';

// docs/api.md, Access and Limits: what every request of a known user goes through, decided by
// the core (chargeRequest): the subscription's two 403s, then the user's minute and month.
// The headers that carry it and the counter shared by processes on both databases:
// http-rate-limits.test.ts and http-auth.test.ts.

const internals = {
    seconds: (iso: string): number => Date.parse(iso) / 1000
};

describe('request limits: the subscription and the per-user quota (core, in memory)', () => {

    it('refuses a paused subscription and an ended or never-activated one with their two messages, counting nothing', async () => {

        const memory = memoryPorts();
        for (const [subscription, message] of [
            ['paused', messages.subscriptionPaused],
            ['ended', messages.subscriptionInactive],
            ['inactive', messages.subscriptionInactive]
        ] as const) {
            const principal = memory.account({ subscription });
            expect(await refusalOf(chargeRequest(memory.ports, principal))).to.include({ kind: 'forbidden', message });
        }

        expect(memory.world.counts.size).to.equal(0);
        expect(messages.subscriptionPaused).to.not.equal(messages.subscriptionInactive);
    });

    it('tells on every counted request the limit closest to running out, what is left of it and when it resets', async () => {

        const memory = memoryPorts({ rateLimits: { perMinute: 3, perMonth: 5 }, now: '2026-03-15T12:00:30Z' });
        const principal = memory.account();
        const first = await chargeRequest(memory.ports, principal);
        expect(first.rateLimit).to.deep.equal({ limit: 3, remaining: 2, resetAt: internals.seconds('2026-03-15T12:01:00Z') });
        await chargeRequest(memory.ports, principal);
        // Minute and month tie at one left: the month's, since waiting does not help there.
        memory.clock.set('2026-03-15T12:01:10Z');
        await chargeRequest(memory.ports, principal);
        const fourth = await chargeRequest(memory.ports, principal);
        expect(fourth.rateLimit).to.deep.equal({ limit: 5, remaining: 1, resetAt: internals.seconds('2026-04-01T00:00:00Z') });
    });

    it('answers the request past the minute\'s limit with 429, the limit, its reset and how long to wait; the next minute lets it through', async () => {

        const memory = memoryPorts({ now: '2026-03-15T12:00:45Z' });
        const principal = memory.account();
        for (let i = 0; i < 100; ++i) {
            await chargeRequest(memory.ports, principal);
        }

        const err = await refusalOf(chargeRequest(memory.ports, principal));
        expect(err).to.include({ kind: 'rate_limited', message: messages.rateLimited });
        expect(err.rateLimit).to.deep.equal({ limit: 100, resetAt: internals.seconds('2026-03-15T12:01:00Z'), retryAfterSeconds: 15 });

        memory.clock.set('2026-03-15T12:01:00Z');
        expect((await chargeRequest(memory.ports, principal)).rateLimit).to.include({ limit: 100, remaining: 99 });
    });

    it('answers the month\'s limit with the first instant of next month, and reports the month when both are exceeded', async () => {

        const memory = memoryPorts({ rateLimits: { perMinute: 2, perMonth: 2 }, now: '2026-12-31T23:59:00Z' });
        const principal = memory.account();
        await chargeRequest(memory.ports, principal);
        await chargeRequest(memory.ports, principal);
        const err = await refusalOf(chargeRequest(memory.ports, principal));
        expect(err.rateLimit).to.deep.equal({ limit: 2, resetAt: internals.seconds('2027-01-01T00:00:00Z'), retryAfterSeconds: 60 });
    });

    it('keeps each user\'s count apart, in the same account or another', async () => {

        const memory = memoryPorts({ rateLimits: { perMinute: 1, perMonth: 100 } });
        const owner = memory.account();
        await chargeRequest(memory.ports, owner);
        expect((await refusalOf(chargeRequest(memory.ports, owner))).kind).to.equal('rate_limited');
        await chargeRequest(memory.ports, memory.member(owner.accountId));
        await chargeRequest(memory.ports, memory.account());
    });
});
