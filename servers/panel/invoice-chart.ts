import { formatMoney, monthLabel, monthName } from './client-format.js';
import { clientTexts } from './client-texts.js';

// The comprobantes chart: the last 12 months' totals in pesos, issued beside received, as the
// geometry of an SVG that the template draws (servers/panel/client-views.ts). Numbers only
// here: every text reaches the page through the template's escaping, and colours come from the
// stylesheet by class (the CSP allows no inline style).

export interface ChartMonth {
    fromDate: string;
    toDate: string;
    issued: number;
    received: number;
}

const internals = {
    width: 720,
    height: 260,
    left: 84,
    right: 8,
    top: 12,
    bottom: 34,
    barWidth: 16,
    tickCount: 4,
    compact: new Intl.NumberFormat('es-AR', { notation: 'compact', maximumFractionDigits: 1 }),

    round: (value: number): number => Math.round(value * 10) / 10,

    // A step of 1, 2, 2.5 or 5 times a power of ten that splits the range in about `count`.
    step(range: number, count: number): number {

        const raw = range / count;
        const magnitude = 10 ** Math.floor(Math.log10(raw));
        const normal = raw / magnitude;
        return (normal <= 1 ? 1 : normal <= 2 ? 2 : normal <= 2.5 ? 2.5 : normal <= 5 ? 5 : 10) * magnitude;
    },

    tickLabel: (value: number): string => `${value < 0 ? '-' : ''}$ ${internals.compact.format(Math.abs(value))}`
};

// `titleOf` says a month's bars in words (the Monotributo tab's are billing and purchases).
export const invoiceChart = (months: readonly ChartMonth[], linkOf: (month: ChartMonth) => string, titleOf = clientTexts.chartBar) => {

    const { width, height, left, right, top, bottom, barWidth } = internals;
    const values = months.flatMap((month) => [month.issued, month.received]);
    const low = Math.min(0, ...values);
    const high = Math.max(0, ...values);
    const step = high === low ? 1 : internals.step(high - low, internals.tickCount);
    const from = Math.floor(low / step) * step;
    const to = Math.max(Math.ceil(high / step) * step, from + step);
    const plot = height - top - bottom;
    const y = (value: number): number => internals.round(top + (to - value) / (to - from) * plot);
    const bar = (value: number, x: number) => ({
        x: internals.round(x), y: Math.min(y(value), y(0)), width: barWidth, height: internals.round(Math.abs(y(value) - y(0)))
    });
    const slot = (width - left - right) / Math.max(1, months.length);
    const ticks = [];
    for (let value = from; value <= to + step / 2; value += step) {
        ticks.push({ y: y(value), label: internals.tickLabel(value), x1: left, x2: width - right, labelX: left - 6 });
    }

    return {
        width,
        height,
        ticks,
        baseline: { y: y(0), x1: left, x2: width - right },
        months: months.map((month, index) => {

            const middle = left + slot * index + slot / 2;
            return {
                href: linkOf(month),
                title: titleOf(monthName(month.fromDate), formatMoney(month.issued), formatMoney(month.received)),
                label: monthLabel(month.fromDate),
                labelX: internals.round(middle),
                labelY: height - bottom + 18,
                issued: bar(month.issued, middle - barWidth - 1),
                received: bar(month.received, middle + 1)
            };
        })
    };
};
