import type { ServerRoute } from '@hapi/hapi';
import type { Principal } from '../../core/domain/access.js';
import { mayManageAccount } from '../../core/domain/access.js';
import { categories } from '../../core/domain/client.js';
import { isDomainError } from '../../core/domain/errors.js';
import { healthStates } from '../../core/domain/health.js';
import type { Ports } from '../../core/ports/index.js';
import type { Cuit } from '../../core/domain/cuit.js';
import { listTags } from '../../core/use-cases/list-tags.js';
import { listTeam } from '../../core/use-cases/staff/list-team.js';
import { monotributoSummariesOf } from '../../core/use-cases/monotributo.js';
import type { PortfolioRow } from '../../core/use-cases/portfolio.js';
import { listPortfolio, portfolioLimits, semaphoreOf } from '../../core/use-cases/portfolio.js';
import { capMeter } from './cap-meter.js';
import { portfolioWriteLinks } from './client-forms.js';
import { formatCount, formatDay } from './format.js';
import type { PanelContext } from './respond.js';
import { errorPage, panelPaths, renderPage, withSession } from './respond.js';
import { panelTexts } from './texts.js';

// La cartera (GET /panel): the portfolio's CUITs with their semáforo, searched and filtered
// by a plain GET form (no script), counted over the whole filtered portfolio at the top, and
// grouped: "Clientes" first, then "Otros" (whose Sistema Registral synchronization has not
// ended), across pages.

const fields = ['q', 'estado', 'atencion', 'etiqueta', 'regimen', 'categoria'] as const;
type PortfolioForm = Record<typeof fields[number], string>;

const internals = {
    pageSize: 50,
    t: panelTexts,

    // The form's fields, as they came (strings only), and as the portfolio's parameters
    // (core checks them, with the API's messages).
    form(query: Record<string, unknown>): PortfolioForm {

        const field = (name: string): string => (typeof query[name] === 'string' ? query[name] : '');
        return Object.fromEntries(fields.map((name) => [name, field(name)])) as PortfolioForm;
    },

    parameters(form: PortfolioForm, pageNumber: number): Record<string, string> {

        return {
            ...(form.etiqueta ? { etiquetas: form.etiqueta } : {}),
            ...(form.regimen === 'monotributista' ? { monotributista: 'true' } : form.regimen === 'autonomo' ? { autonomo: 'true' } : {}),
            ...(form.categoria ? { categoria: form.categoria } : {}),
            ...(form.estado ? { estado: form.estado } : {}),
            ...(form.atencion === 'si' ? { requiere_atencion: 'true' } : form.atencion === 'no' ? { requiere_atencion: 'false' } : {}),
            limit: String(internals.pageSize),
            offset: String((pageNumber - 1) * internals.pageSize)
        };
    },

    row({ item, health }: PortfolioRow, caps: Awaited<ReturnType<typeof monotributoSummariesOf>>) {

        const light = health ? semaphoreOf(health.estado) : 'waiting';
        const latest = (health?.sistemas ?? []).map((entry) => entry.syncedAt).filter((at): at is string => at !== null).sort().at(-1);
        const regime = [
            ...(item.monotributista ? [internals.t.monotributista(item.categoria)] : []),
            ...(item.autonomo ? [internals.t.autonomo] : [])
        ];
        return {
            synced: item.sistemaRegistralSyncedAt !== null,
            light,
            lightLabel: internals.t.semaphore[light],
            sentence: health?.mensaje ?? '',
            name: item.nombre,
            href: `/panel/clientes/${item.displayCuit}`,
            cuit: item.displayCuit,
            tags: item.etiquetas,
            regime: regime.length ? regime.join(' · ') : internals.t.unknownRegime,
            lastSync: latest ? formatDay(latest) : internals.t.never,
            cap: capMeter(caps.get(item.cuit))
        };
    },

    async values(deps: Ports, principal: Principal, pageNumber: number, query: Record<string, unknown>) {

        const form = internals.form(query);
        const [portfolio, tags] = await Promise.all([
            listPortfolio(deps, principal, { query: internals.parameters(form, pageNumber) }, { search: form.q }),
            listTags(deps, principal, { query: { limit: '100' } })
        ]);
        const { counts } = portfolio;
        const kept = new URLSearchParams(Object.entries(form).filter(([, value]) => value !== ''));
        const link = (to: number) => `${panelPaths.portfolio}?${new URLSearchParams([...kept, ['pagina', String(to)]]).toString()}`;
        // The cap's use for this page's monotributistas only (not the portfolio's aggregate).
        const monotributistas = portfolio.data.filter(({ item }) => item.monotributista).map(({ item }) => item.cuit as Cuit);
        const caps = await monotributoSummariesOf(deps, principal, monotributistas);
        const rows = portfolio.data.map((row) => internals.row(row, caps));
        const groups = [
            { id: 'clientes', title: internals.t.synced, total: formatCount(counts.synced), note: null, rows: rows.filter((row) => row.synced) },
            { id: 'otros', title: internals.t.others, total: formatCount(counts.others), note: internals.t.othersNote, rows: rows.filter((row) => !row.synced) }
        ].filter((group) => group.rows.length > 0);
        const pages = Math.max(1, Math.ceil(counts.total / internals.pageSize));
        return {
            total: counts.total,
            counts: {
                line: internals.t.counts(counts.total, counts.lights.attention),
                groups: [
                    { id: 'clientes', label: internals.t.synced, count: formatCount(counts.synced) },
                    { id: 'otros', label: internals.t.others, count: formatCount(counts.others) }
                ],
                lights: (['ok', 'waiting', 'attention'] as const).map((light) => ({ light, label: internals.t.semaphore[light], count: formatCount(counts.lights[light]) }))
            },
            groups,
            paging: pages > 1 ? {
                label: internals.t.pageOf(pageNumber, pages),
                previous: pageNumber > 1 ? link(pageNumber - 1) : null,
                next: pageNumber < pages ? link(pageNumber + 1) : null
            } : null,
            filter: {
                q: form.q,
                searchLength: portfolioLimits.searchLength,
                states: healthStates.map((value) => ({ value, label: internals.t.states[value], selected: value === form.estado })),
                attention: (['si', 'no'] as const).map((value) => ({ value, label: internals.t.attentionChoices[value === 'si' ? 'true' : 'false'], selected: value === form.atencion })),
                tags: tags.data.map((tag) => ({ value: tag.nombre, selected: tag.nombre === form.etiqueta })),
                regimes: [['monotributista', internals.t.regimes.monotributista], ['autonomo', internals.t.regimes.autonomo]].map(
                    ([value, label]) => ({ value, label, selected: value === form.regimen })
                ),
                categories: categories.map((value) => ({ value, selected: value === form.categoria })),
                active: kept.size > 0
            }
        };
    }
};

export const portfolioRoutes = (context: PanelContext): ServerRoute[] => [
    {
        method: 'GET',
        path: panelPaths.portfolio,
        options: { auth: false },
        handler: withSession(context, async (request, h, session) => {

            const error = (message: string) => errorPage(h, context, request, session, message, 400);
            const raw = request.query.pagina as unknown;
            if (raw !== undefined && (typeof raw !== 'string' || !/^[1-9]\d{0,5}$/.test(raw))) {
                return error(internals.t.badPage);
            }

            let values;
            try {
                values = await internals.values(context.deps, session.principal, raw === undefined ? 1 : Number(raw), request.query);
            }
            catch (err) {
                if (isDomainError(err) && err.kind === 'invalid') {
                    return error(err.message);
                }

                throw err;
            }

            // Owners tag the selection (tags-page.ts), back to this very page afterwards, or
            // assign it to one of the account's members (team-page.ts).
            const selection = mayManageAccount(session.principal) ? {
                back: request.url.pathname + request.url.search,
                members: (await listTeam(context.deps, { by: session.principal })).users.filter((user) => user.role === 'member').map(({ id, email }) => ({ id, email }))
            } : null;
            return renderPage(h, context, request, 'portfolio', { title: internals.t.portfolioTitle, ...values, selection, ...portfolioWriteLinks(request.query) }, session);
        })
    }
];
