import { expect } from 'chai';
import type { LoginAttemptFact, LoginFacts } from '../../core/domain/login-ledger.js';
import { decideLogin } from '../../core/domain/login-ledger.js';

// The login ledger's rule (core/domain/login-ledger.ts) on hand-built facts: what each tenant's
// key may do at ARCA, whatever the others did.

const internals = {
    rules: { allowance: 2, weeklyWrongCap: 3 },
    fresh: { provenAt: null, refused: null } as LoginFacts['key'],
    proven: { provenAt: 1, refused: null } as LoginFacts['key'],

    attempt: (keyId: string, accountId: number, input: Partial<LoginAttemptFact> = {}): LoginAttemptFact => ({
        keyId, accountId, proven: false, outcome: 'rejected_key', endsDay: true, at: 10, ...input
    }),

    facts: (input: Partial<LoginFacts>): LoginFacts => ({ today: [], key: internals.fresh, wrongPostsThisWeek: 0, ...input })
};

describe('the login ledger\'s rule', () => {

    it('a proven key is never kept out by other keys\' unproven tries', () => {

        const today = [internals.attempt('mala-a', 1), internals.attempt('mala-c', 3)];
        expect(decideLogin(internals.facts({ today, key: internals.proven, wrongPostsThisWeek: 3 }), { keyId: 'buena', accountId: 2 }, internals.rules))
            .to.deep.equal({ allowed: true, proven: true, relogin: false });
        // Its own logins and every login that went through count.
        const used = [internals.attempt('buena', 2, { proven: true, outcome: 'ok', endsDay: false }), internals.attempt('otra', 4, { outcome: 'ok', endsDay: false })];
        expect(decideLogin(internals.facts({ today: used, key: internals.proven }), { keyId: 'buena', accountId: 2 }, internals.rules))
            .to.include({ allowed: false, reason: 'logins_used' });
    });

    it('an account\'s unproven keys get one try a day; a re-login of the same key is not another try', () => {

        const today = [internals.attempt('mala-1', 1)];
        expect(decideLogin(internals.facts({ today }), { keyId: 'mala-2', accountId: 1 }, internals.rules)).to.include({ allowed: false, reason: 'unproven_today' });
        expect(decideLogin(internals.facts({ today }), { keyId: 'otra', accountId: 2 }, internals.rules)).to.include({ allowed: true, proven: false, relogin: true });
        const crashed = [internals.attempt('nueva', 1, { outcome: null, endsDay: false })];
        expect(decideLogin(internals.facts({ today: crashed, wrongPostsThisWeek: 1 }), { keyId: 'nueva', accountId: 1 }, internals.rules))
            .to.include({ allowed: true, relogin: true });
    });

    it('unproven tries stop at the day\'s allowance and at the weekly cap over every account', () => {

        const today = [internals.attempt('a', 1), internals.attempt('b', 2)];
        expect(decideLogin(internals.facts({ today }), { keyId: 'c', accountId: 3 }, internals.rules)).to.include({ allowed: false, reason: 'logins_used' });
        expect(decideLogin(internals.facts({ wrongPostsThisWeek: 3 }), { keyId: 'c', accountId: 3 }, internals.rules)).to.include({ allowed: false, reason: 'unproven_week' });
        expect(decideLogin(internals.facts({ wrongPostsThisWeek: 2 }), { keyId: 'c', accountId: 3 }, internals.rules)).to.include({ allowed: true });
    });

    it('a refused plaintext is never posted again, and a day ends for the key that met it only', () => {

        const refused = { provenAt: null, refused: { kind: 'rejected_key', at: 5 } };
        expect(decideLogin(internals.facts({ key: refused }), { keyId: 'mala', accountId: 9 }, internals.rules))
            .to.deep.equal({ allowed: false, reason: 'key_refused', kind: 'rejected_key', at: 5 });
        const captcha = [internals.attempt('de-a', 1, { proven: true, outcome: 'captcha' })];
        expect(decideLogin(internals.facts({ today: captcha, key: internals.proven }), { keyId: 'de-a', accountId: 1 }, internals.rules))
            .to.include({ allowed: false, reason: 'day_ended', kind: 'captcha' });
        expect(decideLogin(internals.facts({ today: captcha, key: internals.proven }), { keyId: 'de-b', accountId: 2 }, internals.rules)).to.include({ allowed: true });
    });
});
